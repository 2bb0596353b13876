import { type ServerNode, SubscriptionsServer } from "@matter/main";

/** Resumes the held subscriptions; resolves when done (or when there was nothing to resume). Never rejects. */
export type ResumeSubscriptions = () => Promise<void>;

/**
 * Takes the subscriptions a commissioned node had before its restart out of matter.js's hands until the bridge is
 * running, and activates the behavior that records subscriptions (so they are kept for the next restart).
 *
 * Why: matter.js resumes former subscriptions (Matter 1.3 subscription resumption) *inside* going online:
 * `CommissioningServer` awaits `SubscriptionsServer.reestablishFormerSubscriptions()` in its online handler, so
 * `ServerNode.start()` resolves only after a CASE session to every controller and a full report of every attribute
 * (or a 2 s connection time-out per unreachable controller). For 400 devices that made a restart about a third
 * slower than a first start, and with several bridges each one waited before the next. The node serves
 * controllers from the moment it is online, so the hub reports the bridge running then and resumes right after.
 * It uses matter.js's own resumption (same peer handling and logging); only the moment changes. Must run before
 * `node.start()`.
 */
export async function holdFormerSubscriptions(node: ServerNode): Promise<ResumeSubscriptions> {
  const held = await node.act("hold former subscriptions", (agent) => {
    const subscriptions = agent.get(SubscriptionsServer);
    const former = subscriptions.internal.formerSubscriptions;
    subscriptions.internal.formerSubscriptions = [];
    return former;
  });
  return async () => {
    if (!held.length || !node.lifecycle.isOnline) return;
    try {
      await node.act("resume former subscriptions", (agent) => {
        const subscriptions = agent.get(SubscriptionsServer);
        subscriptions.internal.formerSubscriptions = held;
        return subscriptions.reestablishFormerSubscriptions();
      });
    } catch {
      // The node went offline meanwhile (stop): the controllers re-subscribe on their own when it is back.
    }
  };
}
