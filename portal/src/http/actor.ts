import type { Context } from "hono";
import type { AuditActor } from "../audit/audit.service.ts";
import type { PortalEnv } from "./env.ts";

/** The signed-in admin and client IP of an admin request, for the audit log. */
export const actorOf = (c: Context<PortalEnv>): AuditActor => ({ email: c.var.user.email, ip: c.var.origin.ip });
