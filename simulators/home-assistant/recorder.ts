/** The record of `call_service` messages, waiters on it, and the scripted service behaviour. */
import { cloneJson } from "./core/json.ts";
import type { ServiceRequest } from "./services/service-registry.ts";
import type { RecordedCall, ServiceBehavior } from "./types.ts";

interface Waiter {
  predicate: (call: RecordedCall) => boolean;
  resolve: (call: RecordedCall) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

function entityIdsOf(request: ServiceRequest): string[] {
  const ids: string[] = [];
  for (const source of [request.target?.entity_id, request.serviceData?.entity_id]) {
    if (typeof source === "string") ids.push(...source.split(",").map((id) => id.trim().toLowerCase()));
    else if (Array.isArray(source)) ids.push(...source.map((id) => String(id).toLowerCase()));
  }
  return [...new Set(ids.filter((id) => id !== ""))];
}

export function createRecorder(later: (ms: number, fn: () => void) => NodeJS.Timeout) {
  const calls: RecordedCall[] = [];
  let waiters: Waiter[] = [];
  let scripted: ServiceBehavior | undefined;

  return {
    calls: calls as readonly RecordedCall[],
    record(request: ServiceRequest): RecordedCall {
      const call: RecordedCall = {
        domain: request.domain,
        service: request.service,
        serviceData: cloneJson(request.serviceData ?? {}),
        target: cloneJson(request.target),
        entityIds: entityIdsOf(request),
        returnResponse: request.returnResponse,
        context: { ...request.context },
        at: Date.now(),
      };
      calls.push(call);
      const still: Waiter[] = [];
      for (const waiter of waiters) {
        if (!waiter.predicate(call)) {
          still.push(waiter);
          continue;
        }
        clearTimeout(waiter.timer);
        waiter.resolve(call);
      }
      waiters = still;
      return call;
    },
    clear() {
      calls.length = 0;
    },
    waitFor(predicate: (call: RecordedCall) => boolean, timeoutMs: number): Promise<RecordedCall> {
      const found = calls.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          predicate,
          resolve,
          reject,
          timer: later(timeoutMs, () => {
            waiters = waiters.filter((w) => w !== waiter);
            reject(new Error(`no matching service call within ${timeoutMs} ms`));
          }),
        };
        waiters.push(waiter);
      });
    },
    setBehavior(behavior: ServiceBehavior | undefined) {
      scripted = behavior;
    },
    /** The scripted behaviour for this call, if it applies. */
    behavior(call: RecordedCall): ServiceBehavior | undefined {
      return scripted && (!scripted.match || scripted.match(call)) ? scripted : undefined;
    },
    close() {
      for (const waiter of waiters) {
        clearTimeout(waiter.timer);
        waiter.reject(new Error("the simulator closed"));
      }
      waiters = [];
    },
  };
}
