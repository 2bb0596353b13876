/**
 * What the appliance cloud plugin needs from a vendor cloud, behind an interface so the plugin is tested against a
 * simulated cloud (simulated-cloud.ts) and the wire protocol stays in one place (vesync-client.ts). Cloud only:
 * there is no local control of these appliances.
 */

/** A signed-in account. Kept in memory only (never in plugin storage, which is part of backups). */
export interface CloudSession {
  token: string;
  accountId: string;
}

/** A device on the account. */
export interface CloudDevice {
  cid: string;
  name: string;
  /** The vendor's model code, e.g. `Core300S`, `CAF-DC601S`. */
  model: string;
  online: boolean;
}

/** Device status as the cloud reports it (fields depend on the device family; see appliance-mapping.ts). */
export type CloudStatus = Record<string, unknown>;

/** The commands the plugin sends. */
export type CloudCommand =
  | { type: "power"; on: boolean }
  /** Fan or purifier speed, 1 … the model's speed count. */
  | { type: "level"; level: number }
  /** Ends the running cook of a fryer basket (1 = left/only, 2 = right). A cook is never started remotely. */
  | { type: "endCook"; basket: number };

export type CloudErrorCode = "auth" | "two_factor" | "token_expired" | "offline" | "network" | "api";

/** A cloud failure, classified so the plugin can word its status line and decide whether to sign in again. */
export class CloudError extends Error {
  override name = "CloudError";
  constructor(
    message: string,
    readonly code: CloudErrorCode,
  ) {
    super(message);
  }
}

export interface ApplianceCloudClient {
  signIn(email: string, password: string): Promise<CloudSession>;
  listDevices(session: CloudSession): Promise<CloudDevice[]>;
  status(session: CloudSession, device: CloudDevice): Promise<CloudStatus>;
  command(session: CloudSession, device: CloudDevice, command: CloudCommand): Promise<void>;
}

/** The status line for a sign-in failure. */
export function signInProblem(error: unknown): string {
  if (error instanceof CloudError) {
    switch (error.code) {
      case "auth":
        return "sign-in failed: wrong e-mail or password";
      case "two_factor":
        return "sign-in failed: this account uses two-factor sign-in, which the cloud API cannot use";
      case "network":
        return `sign-in failed: the cloud is unreachable (${error.message})`;
      default:
        return `sign-in failed: ${error.message}`;
    }
  }
  return `sign-in failed: ${(error as Error).message}`;
}
