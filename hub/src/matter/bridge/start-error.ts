import { AddressInUseError, StorageError } from "@matter/main";

/** Why a bridge did not start, in words fit for the bridge record's `statusReason`; the matter.js error is the cause. */
export class BridgeStartError extends Error {
  override name = "BridgeStartError";
  constructor(
    message: string,
    /** `port-in-use`, `storage` or `other`: lets the caller react (e.g. suggest another port). */
    readonly reason: "port-in-use" | "storage" | "other",
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** Wraps whatever `ServerNode.create`/`start` threw into a {@link BridgeStartError} with a clear message. */
export function startErrorFor(error: unknown, bridgeName: string, port: number): BridgeStartError {
  if (error instanceof BridgeStartError) return error;
  const chain = causes(error);
  if (chain.some((e) => e instanceof AddressInUseError || (e as NodeJS.ErrnoException).code === "EADDRINUSE")) {
    return new BridgeStartError(
      `Matter bridge "${bridgeName}" cannot listen on UDP port ${port}: the port is already in use`,
      "port-in-use",
      { cause: error },
    );
  }
  const detail = chain.map((e) => e.message).find(Boolean) ?? String(error);
  if (chain.some((e) => e instanceof StorageError)) {
    return new BridgeStartError(`Matter bridge "${bridgeName}" cannot open its storage: ${detail}`, "storage", { cause: error });
  }
  return new BridgeStartError(`Matter bridge "${bridgeName}" failed to start: ${detail}`, "other", { cause: error });
}

/** The error and its causes (matter.js wraps start failures, e.g. in a construction or aggregate error). */
function causes(error: unknown): Error[] {
  const found: Error[] = [];
  const visit = (value: unknown, depth: number) => {
    if (!(value instanceof Error) || depth > 6 || found.includes(value)) return;
    found.push(value);
    visit(value.cause, depth + 1);
    if (value instanceof AggregateError) for (const inner of value.errors) visit(inner, depth + 1);
    const errors = (value as { errors?: unknown }).errors;
    if (!(value instanceof AggregateError) && Array.isArray(errors)) for (const inner of errors) visit(inner, depth + 1);
  };
  visit(error, 0);
  return found;
}
