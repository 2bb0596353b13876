// Example Matter Hub plugin (plugin API version 1; the types are in the hub's hub/src/plugins/api.ts and
// docs/plugins.md explains them). It registers three devices by device type key and cluster data - no matter.js
// import, which the hub would refuse - and reacts to controller writes through onAttributeWrite.

/** @typedef {import("../../hub/src/plugins/api.ts").PluginContext} PluginContext */
/** @typedef {import("../../hub/src/plugins/api.ts").PluginConfig} PluginConfig */

export default class ExamplePlugin {
  name = "hub-plugin-example";
  version = "1.0.0";
  /** @type {PluginContext | undefined} */
  #context;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  #timer;
  #temperature = 21.5;

  /** The bridge starts: register the devices. @param {PluginContext} context */
  async onStart(context) {
    this.#context = context;
    await context.registerDevice({
      id: "switch",
      name: "Example switch",
      deviceType: "on_off_plugin_unit",
      clusters: [{ clusterId: "onOff", attributes: { onOff: false } }],
      onAttributeWrite: (clusterId, attribute, value) => this.#written("switch", clusterId, attribute, value),
    });
    await context.registerDevice({
      id: "fan",
      name: "Example fan",
      deviceType: "fan",
      // fanModeSequence is mandatory for fanControl (2 = Off/Low/Med/High/Auto).
      clusters: [
        { clusterId: "fanControl", attributes: { fanModeSequence: 2, fanMode: 0, percentSetting: 0, percentCurrent: 0 } },
      ],
      onAttributeWrite: (clusterId, attribute, value) => this.#written("fan", clusterId, attribute, value),
    });
    await context.registerDevice({
      id: "temperature",
      name: "Example temperature",
      deviceType: "temperature_sensor",
      clusters: [{ clusterId: "temperatureMeasurement", attributes: { measuredValue: Math.round(this.#temperature * 100) } }],
    });
  }

  /** All devices are registered: restore what was stored last time. */
  async onConfigure() {
    const context = this.#context;
    if (!context) return;
    const on = context.storage.get("switchOn") === true;
    await context.updateDeviceState("switch", "onOff", { onOff: on });
    this.#timer = setInterval(() => void this.#publishTemperature(), 60_000);
    context.log.info("example plugin configured", { switchOn: on });
  }

  /** The bridge stops or the plugin is disabled. @param {string | undefined} reason */
  async onShutdown(reason) {
    clearInterval(this.#timer);
    this.#context?.log.info(`example plugin shut down (${reason ?? "no reason"})`);
    this.#context = undefined;
  }

  getConfigSchema() {
    return {
      title: "Example plugin",
      properties: { temperature: { type: "number", title: "Temperature to report (°C)" } },
    };
  }

  /** @param {PluginConfig} config */
  async onConfigChanged(config) {
    if (typeof config.temperature === "number") this.#temperature = config.temperature;
    await this.#publishTemperature();
  }

  /** @param {string} deviceId @param {string} clusterId @param {string} attribute @param {unknown} value */
  async #written(deviceId, clusterId, attribute, value) {
    const context = this.#context;
    if (!context) return;
    context.log.info(`onAttributeWrite ${deviceId} ${clusterId}.${attribute} = ${JSON.stringify(value)}`);
    await context.storage.set("lastWrite", { deviceId, clusterId, attribute, value });
    if (deviceId === "switch" && clusterId === "onOff") await context.storage.set("switchOn", value === true);
    // A fan reports the speed it was asked for once it "reached" it.
    if (deviceId === "fan" && attribute === "percentSetting") {
      await context.updateDeviceState("fan", "fanControl", { percentCurrent: value ?? 0 });
    }
  }

  async #publishTemperature() {
    await this.#context?.updateDeviceState("temperature", "temperatureMeasurement", {
      measuredValue: Math.round(this.#temperature * 100),
    });
  }
}
