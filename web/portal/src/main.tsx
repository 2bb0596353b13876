import { render } from "preact";
import { setUnreachableMessage } from "./api/client.ts";
import { loadPublicLanguage } from "./i18n.ts";
import { isAdminPath, pathBelowBase } from "./lib/paths.ts";
import { SignupApp } from "./public/signup-app.tsx";
import { P } from "./strings/public.ts";
import "./styles/public.css";

/**
 * One single-page app, two faces: the public sign-up page at the base URL, and the admin console at `admin`
 * (loaded on demand, so visitors on a phone download only the sign-up page). Each loads its language before it
 * renders (docs/i18n.md); in English that fetches nothing.
 */
const root = document.getElementById("app");
if (root) {
  if (isAdminPath(pathBelowBase())) {
    import("./admin/admin-app.tsx").then(({ startAdmin }) => startAdmin(root));
  } else {
    loadPublicLanguage().then(() => {
      setUnreachableMessage(P.unreachable);
      render(<SignupApp />, root);
    });
  }
}
