/**
 * The actions `POST /api/matter/bridges/:id/actions/:action` accepts (hub-api.md). A leaf module on purpose: the web
 * UI takes the list through `hub/src/contract.ts`, so it must not import anything at run time.
 */
export const BRIDGE_ACTIONS = [
  "start",
  "stop",
  "restart",
  "refresh",
  "factory-reset",
  "force-sync",
  "open-commissioning-window",
] as const;

export type BridgeAction = (typeof BRIDGE_ACTIONS)[number];
