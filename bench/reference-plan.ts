/**
 * What the reference bridge builds: per bridge its port, pairing parameters and devices, each device with the
 * Matter device type key the hub chose for the same entity (read from the hub's `/devices` API in the same run),
 * so the reference carries the same endpoint types and count. Shared by the driver and the reference process.
 */
export interface ReferenceDevice {
  /** Endpoint id (stable: matter.js keys the endpoint number to it). */
  id: string;
  /** The hub's device type key, e.g. `extended_color_light`. */
  key: string;
  label: string;
  /**
   * The companion roles the hub's endpoint carries (`battery`, `battery_low`, `battery_charging`, `power`, `energy`,
   * `voltage`, `current`): the reference adds the same Power Source and electrical measurement clusters.
   */
  carries?: string[];
}

export interface ReferenceBridge {
  id: string;
  port: number;
  passcode: number;
  discriminator: number;
  devices: ReferenceDevice[];
}

export interface ReferencePlan {
  storagePath: string;
  bridges: ReferenceBridge[];
}

/** driver → reference: attribute writes, as an HA state change would cause them in the hub. */
export interface ReferenceSet {
  ref: "set";
  /** [bridge index, endpoint id, state patch by behavior, e.g. `{ onOff: { onOff: true } }`]. */
  changes: [number, string, Record<string, Record<string, unknown>>][];
}

/** reference → driver, on stdout (one JSON line per bridge): the bridge is online and commissionable. */
export interface ReferenceReady {
  msg: "reference bridge running";
  bridge: number;
  manualPairingCode: string;
  /** Endpoint id → endpoint number. */
  endpoints: Record<string, number>;
}

/** reference → driver over IPC: a controller command reached a device (the hub's "service call" point). */
export interface ReferenceCommand {
  ref: "command";
  bridge: number;
  endpoint: string;
  command: string;
}

/** Endpoint ids: what matter.js accepts (no dots). */
export function endpointIdFor(entityId: string): string {
  return entityId.replace(/[^A-Za-z0-9_-]/g, "_");
}
