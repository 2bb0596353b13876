import type { Logger } from "../../lib/logger.ts";
import type { PortalConfig } from "./config.ts";

/** The portal's small typed context, built once in main.ts and passed down (tests pass fakes). */
export interface PortalContext {
  readonly config: PortalConfig;
  readonly log: Logger;
  readonly version: string;
  readonly startedAt: number;
  /** The AES-256-GCM / cookie key (never logged). */
  readonly secretKey: Buffer;
}
