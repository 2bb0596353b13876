export async function portalSuite(): Promise<never> {
  throw new Error("not yet");
}
