/**
 * `startHaSimulator`: a Home Assistant WebSocket API on a real port, serving a home and simulating its devices,
 * with controls for tests (state and registry changes, recorded calls, scripted failures, connection faults).
 * Everything lives inside the returned object; nothing is shared between simulators.
 */
import type { WebSocket } from "ws";
import type { HassEntity } from "../../hub/src/home-assistant/types.ts";
import { createSimCameras } from "./camera/sim-cameras.ts";
import { openConnection, type SimConnection } from "./connection.ts";
import { createEntityPlatform, unavailableAttributes } from "./core/entity-platform.ts";
import { createEventBus } from "./core/event-bus.ts";
import { createExposedEntities } from "./core/exposed-entities.ts";
import { cloneJson } from "./core/json.ts";
import { createRegistries, type Registries } from "./core/registry.ts";
import { createStateMachine } from "./core/state-machine.ts";
import { createClock, newContext } from "./core/time.ts";
import { createDemoHome } from "./demo-home.ts";
import { createCommands } from "./protocol/commands.ts";
import { type CoreState, configJson } from "./protocol/describe.ts";
import { HaError } from "./protocol/errors.ts";
import { createRecorder } from "./recorder.ts";
import { startSimServer } from "./server.ts";
import { allServices } from "./services/index.ts";
import { directScriptService } from "./services/scripts.ts";
import { createServiceRegistry, type ServiceRegistry } from "./services/service-registry.ts";
import type { ServiceRuntime, ServiceSpec } from "./services/types.ts";
import type { HaSimulator, HaSimulatorOptions } from "./types.ts";

/** Starts a simulated Home Assistant; resolves once it listens. */
export async function startHaSimulator(options: HaSimulatorOptions = {}): Promise<HaSimulator> {
  const log = options.log?.child({ component: "ha-simulator" });
  const home = cloneJson(options.home ?? createDemoHome());
  const host = options.host ?? "127.0.0.1";
  const haVersion = options.haVersion ?? "2026.11.1";
  const motionMs = options.motionMs ?? 250;
  let token = options.token ?? "ha-simulator-token";
  let coreState: CoreState = "RUNNING";
  let refuseUntil = 0;
  let closed = false;

  const clock = createClock();
  const bus = createEventBus(clock);
  const states = createStateMachine(bus, clock, home.states);
  let registries: Registries | undefined;
  const getRegistries = () => registries as Registries;
  registries = createRegistries(home, bus, clock, createEntityPlatform(states, getRegistries));
  const exposure = createExposedEntities(registries, home.exposure);

  const motions = new Map<string, NodeJS.Timeout>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closed) fn();
    }, ms);
    timers.add(timer);
    return timer;
  };
  const memory = new Map<string, Record<string, unknown>>();
  let services: ServiceRegistry | undefined;

  const rt: ServiceRuntime = {
    states,
    registries,
    clock,
    motionMs,
    log,
    write: (entityId, state, attributes, context) => void states.set(entityId, state, attributes, context),
    schedule(entityId, ms, fn) {
      rt.cancel(entityId);
      const timer = later(ms, () => {
        motions.delete(entityId);
        fn();
      });
      motions.set(entityId, timer);
    },
    cancel(entityId) {
      const timer = motions.get(entityId);
      if (!timer) return false;
      clearTimeout(timer);
      timers.delete(timer);
      motions.delete(entityId);
      return true;
    },
    memory(entityId) {
      let entry = memory.get(entityId);
      if (!entry) {
        entry = {};
        memory.set(entityId, entry);
      }
      return entry;
    },
    codeFor: (entityId) => options.codes?.[entityId] ?? "1234",
    call: (domain, service, data, context) =>
      (services as ServiceRegistry).call({ domain, service, serviceData: data, context, returnResponse: false }),
    sleep: (ms) => new Promise((resolve) => later(ms, () => resolve())),
  };

  const scriptSpecs = () =>
    states
      .all()
      .filter((state) => state.domain === "script")
      .map((state) => directScriptService(rt, state.entityId.slice("script.".length)))
      .filter((spec): spec is ServiceSpec => spec !== undefined);
  services = createServiceRegistry(
    allServices(),
    (domain, service) => (domain === "script" ? directScriptService(rt, service) : undefined),
    scriptSpecs,
    bus,
    rt,
  );

  const recorder = createRecorder(later);
  const cameras = createSimCameras({ states, token: () => token, log });
  const components = () => {
    const found = new Set<string>();
    for (const state of states.all()) found.add(state.domain);
    for (const entry of getRegistries().entities.values()) found.add(entry.platform);
    return found;
  };
  const commands = createCommands({
    bus,
    states,
    registries,
    exposure,
    services,
    log,
    config: () =>
      configJson({
        version: haVersion,
        state: coreState,
        unitSystem: options.unitSystem ?? "metric",
        locationName: options.locationName ?? "Home",
        components: components(),
      }),
    async callService(request) {
      const call = recorder.record(request);
      const behavior = recorder.behavior(call);
      if (behavior?.delayMs) await rt.sleep(behavior.delayMs);
      if (behavior?.hold) await behavior.hold.catch(() => undefined);
      if (behavior?.fail) throw new HaError(behavior.fail.code, behavior.fail.message);
      return (services as ServiceRegistry).call(request);
    },
    extraCommands: cameras.commands,
  });
  // An older HA: these commands do not exist (answered with unknown_command).
  for (const type of options.omitCommands ?? []) commands.delete(type);

  const connections = new Map<WebSocket, SimConnection>();
  const user = { id: "3c8a1d4e9b0f4f6aa1e2d3c4b5a69788", name: "Owner" };
  const server = await startSimServer({
    host,
    port: options.port ?? 0,
    refusing: () => Date.now() < refuseUntil,
    token: () => token,
    routes: cameras.handleHttp,
    onSocket(socket) {
      connections.set(
        socket,
        openConnection(socket, { haVersion: () => haVersion, token: () => token, user, commands, clock, log }),
      );
      socket.on("close", () => connections.delete(socket));
    },
  });
  const urlHost = host.includes(":") ? `[${host}]` : host;
  log?.debug({ port: server.port }, "simulated Home Assistant listening");

  const dropConnections = () => {
    for (const socket of server.sockets) socket.terminate();
  };

  const simulator: HaSimulator = {
    url: `http://${urlHost}:${server.port}`,
    port: server.port,
    get token() {
      return token;
    },
    getState: (entityId) => cloneJson(states.get(entityId)?.toJSON()),
    getStates: () => states.all().map((state) => cloneJson(state.toJSON())),
    setState(entityId, state, attributes = {}, setOptions = {}) {
      const current = states.get(entityId);
      const merged: Record<string, unknown> = setOptions.replaceAttributes || !current ? {} : { ...current.attributes };
      for (const [key, value] of Object.entries(cloneJson(attributes))) merged[key] = value;
      for (const [key, value] of Object.entries(attributes)) if (value === undefined) delete merged[key];
      return cloneJson(states.set(entityId, state, merged, undefined, { silent: setOptions.silent }).toJSON());
    },
    removeState: (entityId) => void states.remove(entityId),
    fireEvent: (eventType, data = {}) => void bus.fire(eventType, cloneJson(data)),
    addEntity(entry, state?: HassEntity) {
      const stored = getRegistries().createEntity(entry);
      if (stored.disabled_by !== null) return;
      if (state)
        states.set(stored.entity_id, state.state, cloneJson(state.attributes), state.context ? { ...state.context } : undefined);
      else states.set(stored.entity_id, "unavailable", unavailableAttributes(stored));
    },
    updateEntity: (entityId, changes) => void getRegistries().updateEntity(entityId, changes),
    removeEntity: (entityId) => getRegistries().removeEntity(entityId),
    addDevice: (device) => getRegistries().createDevice(device),
    updateDevice: (deviceId, changes) => getRegistries().updateDevice(deviceId, changes),
    removeDevice: (deviceId) => getRegistries().removeDevice(deviceId),
    addArea: (area) => getRegistries().createArea(area),
    updateArea: (areaId, changes) => getRegistries().updateArea(areaId, changes),
    removeArea: (areaId) => getRegistries().removeArea(areaId),
    addLabel: (label) => getRegistries().createLabel(label),
    updateLabel: (labelId, changes) => getRegistries().updateLabel(labelId, changes),
    removeLabel: (labelId) => getRegistries().removeLabel(labelId),
    exposeEntities(entityIds, assistants, shouldExpose) {
      for (const entityId of entityIds) for (const assistant of assistants) exposure.expose(assistant, entityId, shouldExpose);
    },
    exposedEntities: () => exposure.list(),
    snapshot: () =>
      cloneJson({
        states: states.all().map((state) => state.toJSON()),
        entities: [...getRegistries().entities.values()],
        devices: [...getRegistries().devices.values()],
        areas: [...getRegistries().areas.values()],
        labels: [...getRegistries().labels.values()],
        exposure: exposure.unregistered(),
      }),
    get calls() {
      return recorder.calls;
    },
    clearCalls: () => recorder.clear(),
    waitForCall: (predicate, timeoutMs = 2000) => recorder.waitFor(predicate, timeoutMs),
    setServiceBehavior: (behavior) => recorder.setBehavior(behavior),
    addCamera: (entityId, cameraOptions) => cameras.add(entityId, cameraOptions),
    cameraStats: (entityId) => cameras.stats(entityId),
    connectionCount: () => server.sockets.size,
    dropConnections,
    refuseConnections(ms) {
      refuseUntil = Date.now() + ms;
    },
    async restart(restartOptions = {}) {
      const downMs = restartOptions.downMs ?? 0;
      coreState = "NOT_RUNNING";
      if (downMs > 0) refuseUntil = Date.now() + downMs;
      dropConnections();
      later(downMs + (restartOptions.notRunningMs ?? 1000), () => {
        coreState = "STARTING";
        bus.fire("homeassistant_start", {}, newContext(clock.now()));
        coreState = "RUNNING";
        bus.fire("homeassistant_started", {}, newContext(clock.now()));
      });
    },
    setToken(next) {
      token = next;
      for (const [socket, connection] of connections) {
        if (connection.authenticated && connection.token !== next) socket.close();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      motions.clear();
      recorder.close();
      await cameras.close();
      await server.close();
    },
  };
  return simulator;
}
