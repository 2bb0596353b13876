// TODO(pi18nb): placeholder so the registry (PORTAL_ADMIN_LOCALES) type-checks; the es translation of the admin
// console from branch pi18nb replaces this file. Until then the console stays English in es.
import { A, type AdminMessages } from "../../strings/admin.ts";

export default A satisfies AdminMessages;
