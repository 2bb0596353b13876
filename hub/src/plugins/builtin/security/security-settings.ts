/**
 * The security plugin's settings (docs/plugins.md "Security plugin"): parsed from the saved configuration with the
 * spec's rules. Entity fields are comma-separated and de-duplicated; alert lists keep only siren, switch, light,
 * script and scene; empty vacation lists fall back to the Away lists; haUrl and haToken count only as a pair.
 */
import type { PluginConfig, PluginConfigSchema } from "../../api.ts";

export const MODES = ["home", "away", "night", "vacation"] as const;
export type Mode = (typeof MODES)[number];

export interface SecuritySettings {
  exitDelayMs: number;
  entryDelayMs: number;
  /** 0 keeps a trip until disarm. */
  triggerTimeMs: number;
  sourceAlarmPanel: string | null;
  setters: Record<Mode | "off", string[]>;
  triggers: Record<Mode, string[]>;
  alerts: Record<Mode, string[]>;
  triggers24h: string[];
  alerts24h: string[];
  alwaysAlerts: string[];
  ha: { url: string; token: string } | null;
}

/** Alert domains: the first three are turned off when the alarm clears, scripts and scenes only fire. */
export const ALERT_DOMAINS = ["siren", "switch", "light", "script", "scene"] as const;
export const CLEARABLE_ALERT_DOMAINS = new Set(["siren", "switch", "light"]);
const ENTITY_ID = /^[a-z0-9_]+\.[a-z0-9_]+$/;

/** A comma-separated entity list: trimmed, de-duplicated, invalid ids dropped with a warning. */
export function entityList(value: unknown, field: string, warn: (message: string) => void): string[] {
  if (typeof value !== "string") return [];
  const ids = new Set<string>();
  for (const part of value.split(",")) {
    const id = part.trim();
    if (id === "") continue;
    if (ENTITY_ID.test(id)) ids.add(id);
    else warn(`${field}: "${id}" is not an entity id; skipped`);
  }
  return [...ids];
}

function alertList(value: unknown, field: string, warn: (message: string) => void): string[] {
  return entityList(value, field, warn).filter((id) => {
    const domain = id.slice(0, id.indexOf("."));
    if ((ALERT_DOMAINS as readonly string[]).includes(domain)) return true;
    warn(`${field}: ${id} dropped: alerts must be siren, switch, light, script or scene entities`);
    return false;
  });
}

function seconds(value: unknown, fallback: number): number {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) && number >= 0 ? Math.round(number * 1000) : fallback * 1000;
}

export function parseSecuritySettings(config: PluginConfig, warn: (message: string) => void): SecuritySettings {
  const list = (key: string) => entityList(config[key], key, warn);
  const alerts = (key: string) => alertList(config[key], key, warn);
  const orAway = (own: string[], away: string[]) => (own.length > 0 ? own : away);
  const url = typeof config.haUrl === "string" ? config.haUrl.trim() : "";
  const token = typeof config.haToken === "string" ? config.haToken.trim() : "";
  if (Boolean(url) !== Boolean(token)) warn("set both haUrl and haToken, or neither: the pair is ignored");
  let panel = typeof config.sourceAlarmPanel === "string" ? config.sourceAlarmPanel.trim() : "";
  if (panel && !/^alarm_control_panel\.[a-z0-9_]+$/.test(panel)) {
    warn(`sourceAlarmPanel: "${panel}" is not an alarm_control_panel entity; ignored`);
    panel = "";
  }
  const awaySetters = list("awaySetters");
  const awayTriggers = list("awayTriggers");
  const awayAlerts = alerts("awayAlerts");
  return {
    exitDelayMs: seconds(config.exitDelaySeconds, 60),
    entryDelayMs: seconds(config.entryDelaySeconds, 60),
    triggerTimeMs: seconds(config.triggerTimeSeconds, 120),
    sourceAlarmPanel: panel || null,
    setters: {
      home: list("homeSetters"),
      away: awaySetters,
      night: list("nightSetters"),
      vacation: orAway(list("vacationSetters"), awaySetters),
      off: list("offSetters"),
    },
    triggers: {
      home: list("homeTriggers"),
      away: awayTriggers,
      night: list("nightTriggers"),
      vacation: orAway(list("vacationTriggers"), awayTriggers),
    },
    alerts: {
      home: alerts("homeAlerts"),
      away: awayAlerts,
      night: alerts("nightAlerts"),
      vacation: orAway(alerts("vacationAlerts"), awayAlerts),
    },
    triggers24h: list("triggers24h"),
    alerts24h: alerts("alerts24h"),
    alwaysAlerts: alerts("alwaysAlerts"),
    ha: url && token ? { url, token } : null,
  };
}

const text = (title: string, description?: string) => ({
  type: "string" as const,
  title,
  ...(description ? { description } : {}),
});
const delay = (title: string, defaultSeconds: number) => ({
  type: "integer" as const,
  title,
  minimum: 0,
  default: defaultSeconds,
});

/** The settings dialog (entity fields are comma-separated lists). */
export const SECURITY_SCHEMA: PluginConfigSchema = {
  title: "Security (experimental local alarm)",
  properties: {
    exitDelaySeconds: delay("Exit delay (s), 0 disables", 60),
    entryDelaySeconds: delay("Entry delay for door/window sensors (s), 0 disables", 60),
    triggerTimeSeconds: delay("Trigger time (s), 0 keeps the alarm tripped until disarm", 120),
    sourceAlarmPanel: text("Mirror this alarm_control_panel instead of a local alarm"),
    ...Object.fromEntries(
      MODES.flatMap((mode) => [
        [`${mode}Setters`, text(`${mode} setters`, "turned on when the mode is reached")],
        [`${mode}Triggers`, text(`${mode} triggers`, "sensors that trip the alarm in this mode")],
        [`${mode}Alerts`, text(`${mode} alerts`, "siren, switch, light, script or scene entities")],
      ]),
    ),
    offSetters: text("Off setters", "turned on when disarmed"),
    triggers24h: text("24h triggers", "smoke, gas, water leak: trip in every state"),
    alerts24h: text("24h alerts"),
    alwaysAlerts: text("Always alerts", "fired on every trip"),
    haUrl: text("Home Assistant URL (optional)"),
    haToken: { type: "string", title: "Home Assistant token (optional)", secret: true },
  },
};
