/**
 * Controller attribute writes → HA actions. Some clusters are driven by writes instead of commands (Thermostat
 * setpoints and SystemMode, FanControl FanMode/PercentSetting/…, Matter 1.3 §4.3/§4.4). A write changes state in a
 * transaction; before it commits we call HA, and a refusal throws, which rolls the write back and reports FAILURE.
 *
 * All fields written in one transaction (one controller write request, e.g. both setpoints of an Auto thermostat)
 * reach `forward` together, so they become ONE HA call. State changes made by `updateDeviceEndpoint` (HA → Matter)
 * and by our own command handlers are tagged with {@link markOrigin} and are never forwarded.
 */
import type { Behavior } from "@matter/main";

type Transaction = Behavior["context"]["transaction"];
type Origin = "ha-state" | "command";

const origins = new WeakMap<Transaction, Origin>();
const pendingWrites = new WeakMap<Transaction, Map<string, Record<string, unknown>>>();

/** Tags a transaction so the write forwarders ignore the state it changes. */
export function markOrigin(transaction: Transaction, origin: Origin): void {
  origins.set(transaction, origin);
}

/** The tag of a transaction, if any. */
export function originOf(transaction: Transaction): Origin | undefined {
  return origins.get(transaction);
}

/** The changes collected for one behavior, handed to `forward` once per transaction. */
export type WrittenValues = Record<string, unknown>;

/**
 * Installs the forwarding for `fields` of `behavior`; call from `initialize()`. `forward` runs in the writing
 * transaction (bound to the behavior of that transaction) and throws to refuse the write.
 */
export function forwardWrites<B extends Behavior>(
  behavior: B,
  fields: readonly string[],
  forward: (this: B, written: WrittenValues) => Promise<void>,
): void {
  const events = behavior.events as unknown as Record<string, Parameters<Behavior["reactTo"]>[0] | undefined>;
  const react = (behavior as unknown as { reactTo: Behavior["reactTo"] }).reactTo.bind(behavior);
  for (const field of fields) {
    const changing = events[`${field}$Changing`];
    if (changing === undefined) continue;
    react(changing, function collect(this: B, value: unknown) {
      record(this, field, value, forward);
    });
  }
}

function record<B extends Behavior>(
  behavior: B,
  field: string,
  value: unknown,
  forward: (this: B, written: WrittenValues) => Promise<void>,
): void {
  const transaction = behavior.context.transaction;
  if (origins.has(transaction)) return;
  let byBehavior = pendingWrites.get(transaction);
  if (!byBehavior) {
    byBehavior = new Map();
    pendingWrites.set(transaction, byBehavior);
  }
  const id = behavior.type.id;
  const existing = byBehavior.get(id);
  if (existing) {
    existing[field] = value;
    return;
  }
  const written: WrittenValues = { [field]: value };
  byBehavior.set(id, written);
  let sent = false;
  // A pre-commit participant added during pre-commit runs after the datasource has emitted every $Changing of
  // this cycle, so `written` is complete when it runs.
  transaction.addParticipants({
    toString: () => `forward-writes<${behavior}>`,
    preCommit: async () => {
      if (sent) return false;
      sent = true;
      await forward.call(behavior, written);
      return false;
    },
  });
}
