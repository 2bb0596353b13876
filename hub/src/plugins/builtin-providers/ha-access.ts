/**
 * How the security plugin reaches Home Assistant (BuiltinServices.openHa): state reads, per-entity state listeners,
 * service calls and a "usable again" signal after reconnects. By default it shares the hub's connection (same
 * credentials as the bridge, no second subscription of the whole home); with its own `haUrl` + `haToken` it opens
 * a connection of its own, closed again on shutdown.
 */
import type { Logger } from "../../../../lib/logger.ts";
import { HomeAssistantService } from "../../home-assistant/home-assistant-service.ts";
import type { HaAccess, HaAccessFactory } from "../builtin-services.ts";

function accessTo(service: HomeAssistantService, closeService: () => Promise<void>): HaAccess {
  const offs = new Set<() => void>();
  const track = (off: () => void) => {
    offs.add(off);
    return () => {
      off();
      offs.delete(off);
    };
  };
  return {
    state: (entityId) => service.model.states.get(entityId),
    onState(entityId, listener) {
      let previous = service.model.states.get(entityId);
      return track(
        service.model.onEntity(entityId, (_id, state) => {
          const before = previous;
          previous = state;
          listener(state, before);
        }),
      );
    },
    call: (action, entityId, data) => service.actions.call({ action, entityId, ...(data ? { data } : {}) }),
    onReconnect(listener) {
      service.client.on("ready", listener);
      return track(() => service.client.off("ready", listener));
    },
    async close() {
      for (const off of [...offs]) off();
      offs.clear();
      await closeService();
    },
  };
}

/** The factory built-ins get: the hub's service shared, or a new service for their own credentials. */
export function haAccessFactory(homeAssistant: HomeAssistantService, log: Logger): HaAccessFactory {
  return (own) => {
    if (!own) return accessTo(homeAssistant, async () => undefined);
    const service = new HomeAssistantService({
      url: own.url.replace(/\/+$/, ""),
      token: own.token,
      log: log.child({ component: "plugin-ha" }),
    });
    service.start();
    return accessTo(service, () => service.stop());
  };
}
