import { render } from "preact";
import { setUnreachableMessage } from "./api/client.ts";
import { loadPublicLanguage } from "./i18n.ts";
import { withTokenInFragment } from "./lib/invite-link.ts";
import { isAdminPath, pathBelowBase } from "./lib/paths.ts";
import { SignupApp } from "./public/signup-app.tsx";
import { P } from "./strings/public.ts";
import "./styles/public.css";

/**
 * The sign-up page sends no referrer (the portal says so in a header too; this also holds behind a proxy that drops
 * it), and an older invite link's `?token=` moves into the fragment, so a reload or a copied address no longer sends it.
 */
function keepInvitePrivate(): void {
  const meta = document.createElement("meta");
  meta.name = "referrer";
  meta.content = "no-referrer";
  document.head.append(meta);
  const moved = withTokenInFragment(location.href);
  if (moved) history.replaceState(history.state, "", moved);
}

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
    keepInvitePrivate();
    loadPublicLanguage().then(() => {
      setUnreachableMessage(P.unreachable);
      render(<SignupApp />, root);
    });
  }
}
