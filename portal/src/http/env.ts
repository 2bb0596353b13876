import type { SessionUser } from "../auth/auth.service.ts";
import type { RequestOrigin } from "./client-ip.ts";

/** Hono variables set by the portal's middleware. */
export type PortalEnv = {
  Variables: {
    /** Set for every request (client-ip middleware). */
    origin: RequestOrigin;
    /** Set on `/api/admin/*` once the session is verified. */
    user: SessionUser;
  };
};
