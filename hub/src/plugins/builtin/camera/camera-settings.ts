/**
 * The camera plugin's settings (docs/plugins.md "Camera plugin"): `cameras` is a comma-separated list of camera
 * entity ids, de-duplicated; an id Home Assistant cannot accept (uppercase, hyphen, any character outside a-z, 0-9
 * and `_`, a leading, trailing or doubled underscore) or one of another domain is skipped with a warning. `haUrl` and
 * `haToken` count only as a pair; empty reuses the bridge's Home Assistant connection.
 */
import type { PluginConfig, PluginConfigSchema } from "../../api.ts";

export interface CameraSettings {
  cameras: string[];
  ha: { url: string; token: string } | null;
}

/** HA's `valid_entity_id` (homeassistant/core.py): lowercase slugs, no leading, trailing or doubled underscore. */
const ENTITY_ID = /^(?!.+__)(?!_)[\da-z_]+(?<!_)\.(?!_)[\da-z_]+(?<!_)$/;

export function parseCameraSettings(config: PluginConfig, warn: (message: string) => void): CameraSettings {
  const cameras = new Set<string>();
  const listed = typeof config.cameras === "string" ? config.cameras : "";
  for (const part of listed.split(",")) {
    const id = part.trim();
    if (id === "" || cameras.has(id)) continue;
    if (!ENTITY_ID.test(id)) {
      warn(`cameras: "${id}" is not an id Home Assistant accepts (lowercase letters, digits and _ only); skipped`);
      continue;
    }
    if (!id.startsWith("camera.")) {
      warn(`cameras: ${id} is not a camera entity; skipped`);
      continue;
    }
    cameras.add(id);
  }
  const url = typeof config.haUrl === "string" ? config.haUrl.trim() : "";
  const token = typeof config.haToken === "string" ? config.haToken.trim() : "";
  if (Boolean(url) !== Boolean(token)) warn("set both haUrl and haToken, or neither: the pair is ignored");
  return { cameras: [...cameras], ha: url && token ? { url, token } : null };
}

/** The settings dialog. */
export const CAMERA_SCHEMA: PluginConfigSchema = {
  title: "Cameras (experimental live view)",
  properties: {
    cameras: {
      type: "string",
      title: "Camera entities",
      description: "comma-separated camera.* entity ids; each becomes a Matter camera",
    },
    haUrl: { type: "string", title: "Home Assistant URL (optional)", description: "empty: the bridge's connection" },
    haToken: { type: "string", title: "Home Assistant token (optional)", secret: true },
  },
};
