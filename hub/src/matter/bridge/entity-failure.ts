/**
 * The reason shown for an entity whose device could not be built (devices list, `failedEntities` of the detailed
 * health). matter.js reports invalid initial attribute values as "Behaviors have errors" and keeps the useful part
 * (which attribute, which constraint) in the nested errors; users need that part to fix the entity in HA.
 */

/** "fanControl.state.percentSetting: Constraint "max 100": Value 150 is not within bounds…" instead of the wrapper. */
export function entityFailureReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const nested = (error as Error & { errors?: unknown }).errors;
  if (!Array.isArray(nested) || nested.length === 0) return error.message;
  const details = nested.map((inner: unknown) => {
    const message = inner instanceof Error ? (inner.cause instanceof Error ? inner.cause.message : inner.message) : String(inner);
    // matter.js prefixes the full endpoint path (node.aggregator.<endpoint id>.<behavior>...): keep the behavior on.
    return message.replace(/^Validating (?:[\w-]+\.)*?(\w+\.state\.)/, "$1").replace(/ \(\d+\)$/, "");
  });
  return `${error.message}: ${details.join("; ")}`;
}
