/**
 * Electrical Sensor (0x0510): a power or energy sensor whose HA device has no plug, switch or light to carry it
 * (a solar inverter, a clamp meter). The kind is the bare device type; its clusters come from the electrical facet
 * (../facets/electrical-facet.ts): the sensor is its own companion ({@link DeviceKind.ownRole}), and the bridge adds
 * the other electrical sensors of its device (bridge/composition.ts).
 */
import { ElectricalSensorEndpoint } from "@matter/main/endpoints/electrical-sensor";
import { companionRoleOf } from "../../model/companion-role.ts";
import type { DeviceKind } from "./kind.ts";

export const electricalSensor: DeviceKind = {
  endpointType: () => ElectricalSensorEndpoint,
  ownRole: (snapshot) => companionRoleOf(snapshot.domain, snapshot.state),
  project: () => ({}),
  signature: () => "electrical_sensor",
};
