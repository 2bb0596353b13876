import type { BridgeStatus } from "../api/types.ts";
import { S } from "../strings.ts";

// The panel's own pieces; the ones the portal's console shares (Card, Field, ErrorMessage…) are in common/components.

export function StatusBadge({ status }: { status: BridgeStatus }) {
  return (
    <span class={`badge badge-${status}`} data-status={status}>
      <span class="dot" aria-hidden="true" />
      {S.status[status] ?? status}
    </span>
  );
}

/** True when the error says the endpoint does not exist on this hub (404 on a route, not on a record). */
export function isMissingEndpoint(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { status?: number }).status === 404 &&
    /^Not found: /.test((error as Error).message)
  );
}
