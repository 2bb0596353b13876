import { createStore } from "../../../common/store.ts";
import type { SessionUser } from "../api/public-types.ts";

export interface SessionState {
  state: "loading" | "out" | "in";
  user: SessionUser | null;
  /** The portal runs in demo mode (GET /api/auth/session `demo`). */
  demo: boolean;
  /** The session ended under the admin's feet (a 401): the login form says so. */
  expired: boolean;
}

/** The admin's session, owned by the admin app; api.ts drops it on any 401. */
export const session = createStore<SessionState>({ state: "loading", user: null, demo: false, expired: false });
