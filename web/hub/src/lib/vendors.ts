/** Controller ecosystems by the root vendor id of their fabric (CSA vendor ids). */
const VENDORS: Record<number, string> = {
  4937: "Apple Home",
  4996: "Apple Home",
  24582: "Google Home",
  4631: "Amazon Alexa",
  4321: "Samsung SmartThings",
  4362: "Samsung SmartThings",
  4939: "Home Assistant",
  4107: "Philips Hue",
  4476: "IKEA",
  4874: "Eve",
  4447: "Aqara",
};

/** The ecosystem's name, "Test vendor" for the development ids 0xFFF1-0xFFF4, else null. */
export function vendorName(vendorId: number): string | null {
  if (vendorId >= 0xfff1 && vendorId <= 0xfff4) return "Test vendor";
  return VENDORS[vendorId] ?? null;
}

export function hexId(id: number): string {
  return `0x${id.toString(16).toUpperCase().padStart(4, "0")}`;
}
