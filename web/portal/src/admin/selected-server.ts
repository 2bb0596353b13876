import { createStore } from "../../../common/store.ts";

const KEY = "portal-admin.serverId";

function stored(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/**
 * The managed server the per-server sections (dashboard, tokens, bots, integrations) show. Remembered in this
 * browser only; the shell falls back to the default server when the remembered one is gone.
 */
export const selectedServer = createStore<string | null>(stored());
selectedServer.subscribe((id) => {
  try {
    if (id) localStorage.setItem(KEY, id);
    else localStorage.removeItem(KEY);
  } catch {
    // Private mode without storage: the choice lasts for this page only.
  }
});
