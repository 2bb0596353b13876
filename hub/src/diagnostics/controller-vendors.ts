/**
 * Controller ecosystems by the Matter vendor id of the fabric's root (the id the commissioner put in the fabric).
 * Ids are CSA-assigned; checked against the CSA DCL vendor list as generated into Tasmota
 * (arendst/Tasmota lib/libesp32/berry_matter/generate/be_matter_vendors.h: 0x1349 "Apple Home", 0x1217 "Amazon Alexa",
 * 0x6006 "Google LLC", 0x134B "Nabu Casa") and the CSA manufacturer-code list in zigbee-herdsman
 * (src/zspec/zcl/definition/manufacturerCode.ts: SAMSUNG_2 0x10E1, SMARTTHINGS_INC 0x110A, AMAZON_LAB126 0x1217,
 * APPLE_INC 0x1349, NABU_CASA_INC 0x134B, GOOGLE_LLC 0x6006, NEST_LABS_INC 0x10D6, IKEA_OF_SWEDEN 0x117C,
 * LUMI_UNITED_TECHOLOGY (Aqara) 0x115F, TUYA_GLOBAL_INC 0x125D, XIAOMI 0x126E, TEST_VENDOR_1-4 0xFFF1-0xFFF4).
 * Only ecosystems that ship Matter controllers are named; any other id reads as `null`.
 */
const CONTROLLER_VENDORS: ReadonlyMap<number, string> = new Map([
  [0x1349, "Apple"],
  [0x6006, "Google"],
  [0x10d6, "Google"], // Nest Labs, Google's
  [0x1217, "Amazon"],
  [0x10e1, "Samsung"],
  [0x110a, "Samsung"], // SmartThings, Samsung's
  [0x134b, "Home Assistant"], // Nabu Casa
  [0x117c, "IKEA"],
  [0x115f, "Aqara"],
  [0x125d, "Tuya"],
  [0x126e, "Xiaomi"],
  [0xfff1, "Test vendor"],
  [0xfff2, "Test vendor"],
  [0xfff3, "Test vendor"],
  [0xfff4, "Test vendor"],
]);

/** The controller ecosystem behind a fabric's vendor id, e.g. "Apple" for 0x1349; `null` when not a known one. */
export function controllerVendor(vendorId: number): string | null {
  return CONTROLLER_VENDORS.get(vendorId) ?? null;
}

/** `0x1349` style, as vendors and the CSA write them. */
export function vendorIdHex(vendorId: number): string {
  return `0x${vendorId.toString(16).toUpperCase().padStart(4, "0")}`;
}
