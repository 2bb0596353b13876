import type { ConfigField, GenerationContext } from "./types.ts";

// Settings that mean the same in every entry that has them, with the code that reads them: one definition each.

/** The Docker network of managed mode, which composeFile (render.ts) joins the services to. */
export const dockerNetworkField: ConfigField = {
  key: "dockerNetwork",
  label: "Docker network",
  description: "Existing Docker network shared with the homeserver (managed mode).",
  type: "string",
  default: "matrix",
  pattern: "^[A-Za-z0-9][A-Za-z0-9_.-]*$",
  maxLength: 64,
};

/** Where `who` (e.g. "the bridge") reaches the homeserver; the generated files take it from `homeserverUrl`. */
export const homeserverUrlField = (who: string): ConfigField => ({
  key: "homeserverUrl",
  label: "Homeserver URL",
  description: `Address ${who} uses to reach the homeserver (default: the managed server's internal URL).`,
  type: "url",
  default: null,
});

/** The homeserver address of the generated files: the `homeserverUrl` setting, else the server's internal URL. */
export const homeserverUrl = (ctx: GenerationContext) => (ctx.config.homeserverUrl as string | null) ?? ctx.homeserverInternalUrl;
