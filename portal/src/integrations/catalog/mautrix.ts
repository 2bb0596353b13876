import {
  bridgeAddress,
  composeFile,
  envFile,
  escapeRegex,
  generatedBy,
  instructionsFile,
  registrationFile,
  registrationSteps,
  yamlFile,
} from "./render.ts";
import { dockerNetworkField, homeserverUrl, homeserverUrlField } from "./shared-fields.ts";
import type { CatalogEntry, ConfigField, GeneratedFile, GenerationContext, SecretSpec } from "./types.ts";

/** What differs between the mautrix bridges (all built on mautrix-go's bridgev2 framework, "megabridge" config layout). */
interface MautrixNetwork {
  /** The network id: appservice id, bot and ghost user prefix (`whatsapp` → `@whatsappbot`, `@whatsapp_…`). */
  network: string;
  displayName: string;
  description: string;
  tags: string[];
  defaultPort: number;
  commandPrefix: string;
  maturity: "stable" | "beta";
  /** Network-specific (non-secret) settings, written under `network:` in config.yaml. */
  networkFields?: ConfigField[];
  /** Network-specific secrets, passed as `NETWORK__…` environment variables. */
  networkSecrets?: { key: string; env: string; description: string; required: boolean }[];
  loginHint: string;
}

const commonFields = (defaultPort: number, network: string): ConfigField[] => [
  {
    key: "port",
    label: "Listen port",
    description: "Port the bridge listens on for the homeserver.",
    type: "port",
    default: defaultPort,
  },
  homeserverUrlField("the bridge"),
  {
    key: "bridgeAddress",
    label: "Bridge address",
    description: `Address the homeserver uses to reach the bridge (default: http://mautrix-${network}:<port>).`,
    type: "url",
    default: null,
  },
  {
    key: "botUsername",
    label: "Bot username",
    description: "Localpart of the bridge bot users talk to.",
    type: "string",
    default: `${network}bot`,
    pattern: "^[a-z0-9._=-]+$",
    maxLength: 64,
  },
  {
    key: "botDisplayname",
    label: "Bot display name",
    description: "Display name of the bridge bot.",
    type: "string",
    default: null,
    maxLength: 200,
  },
  {
    key: "adminUserId",
    label: "Bridge admin",
    description: "Matrix user ID with admin rights on the bridge (e.g. @you:example.org); everyone on the server is a user.",
    type: "string",
    default: null,
    pattern: "^@[^\\s:]+:\\S+$",
    maxLength: 255,
  },
  {
    key: "encryption",
    label: "End-to-bridge encryption",
    description: "Allow encrypted portal rooms.",
    type: "boolean",
    default: true,
  },
  {
    key: "doublePuppet",
    label: "Double puppeting",
    description:
      "Messages you send from the other network's app show up as sent by your Matrix account (adds a second, url-less appservice registration).",
    type: "boolean",
    default: false,
  },
  dockerNetworkField,
];

const commonSecrets = (prefix: string): SecretSpec[] => [
  {
    key: "as_token",
    description: "Appservice token (bridge → homeserver).",
    required: true,
    generate: "token",
    env: `${prefix}APPSERVICE__AS_TOKEN`,
    permanent: true,
  },
  {
    key: "hs_token",
    description: "Homeserver token (homeserver → bridge).",
    required: true,
    generate: "token",
    env: `${prefix}APPSERVICE__HS_TOKEN`,
    permanent: true,
  },
  {
    key: "provisioning_shared_secret",
    description: "Shared secret of the bridge's provisioning API.",
    required: true,
    generate: "token",
    env: `${prefix}PROVISIONING__SHARED_SECRET`,
  },
  {
    key: "pickle_key",
    description: "Key that encrypts the bridge's end-to-bridge encryption keys in its database.",
    required: true,
    generate: "token",
    env: `${prefix}ENCRYPTION__PICKLE_KEY`,
  },
  {
    key: "double_puppet_as_token",
    description: "as_token of the double-puppet appservice (given to the bridge as `as_token:<token>`).",
    required: true,
    generate: "token",
    when: (config) => config.doublePuppet === true,
  },
  {
    key: "double_puppet_hs_token",
    description: "hs_token of the double-puppet appservice (unused: it has no URL, but the registration needs one).",
    required: true,
    generate: "token",
    when: (config) => config.doublePuppet === true,
  },
];

/** The files of a mautrix bridgev2 bridge: registration(s), config.yaml without secrets, secrets.env, compose or INSTALL.md. */
function generateMautrix(net: MautrixNetwork, entry: () => CatalogEntry, ctx: GenerationContext): GeneratedFile[] {
  const service = `mautrix-${net.network}`;
  const prefix = `MAUTRIX_${net.network.toUpperCase()}_`;
  const domain = escapeRegex(ctx.serverName);
  const botUsername = String(ctx.config.botUsername);
  const address = bridgeAddress(ctx, service);
  const doublePuppet = ctx.config.doublePuppet === true;
  const encryption = ctx.config.encryption === true;

  const registration: Record<string, unknown> = {
    id: ctx.appserviceId,
    url: address,
    as_token: ctx.secret("as_token") ?? "",
    hs_token: ctx.secret("hs_token") ?? "",
    sender_localpart: ctx.senderLocalpart,
    rate_limited: false,
    namespaces: {
      users: [
        { regex: `^@${escapeRegex(botUsername)}:${domain}$`, exclusive: true },
        { regex: `^@${escapeRegex(net.network)}_.*:${domain}$`, exclusive: true },
      ],
    },
    "de.sorunome.msc2409.push_ephemeral": true,
    receive_ephemeral: true,
  };
  const files: GeneratedFile[] = [registrationFile(ctx, registration)];
  const registrationNames = ["registration.yaml"];
  if (doublePuppet) {
    files.push(
      registrationFile(
        ctx,
        {
          id: `${ctx.appserviceId}-doublepuppet`,
          url: null,
          as_token: ctx.secret("double_puppet_as_token") ?? "",
          hs_token: ctx.secret("double_puppet_hs_token") ?? "",
          sender_localpart: `${ctx.senderLocalpart}dp`,
          rate_limited: false,
          namespaces: { users: [{ regex: `@.*:${domain}`, exclusive: false }] },
        },
        "doublepuppet-registration.yaml",
      ),
    );
    registrationNames.push("doublepuppet-registration.yaml");
  }

  const permissions: Record<string, string> = { "*": "relay", [ctx.serverName]: "user" };
  if (typeof ctx.config.adminUserId === "string") permissions[ctx.config.adminUserId] = "admin";
  const networkConfig: Record<string, unknown> = {};
  for (const field of net.networkFields ?? []) networkConfig[field.key] = ctx.config[field.key];
  const config = {
    network: networkConfig,
    bridge: { command_prefix: net.commandPrefix, permissions },
    database: { type: "sqlite3-fk-wal", uri: `file:/data/${service}.db?_txlock=immediate` },
    homeserver: {
      address: homeserverUrl(ctx),
      domain: ctx.serverName,
      software: "standard",
    },
    appservice: {
      address,
      hostname: "0.0.0.0",
      port: ctx.config.port,
      id: ctx.appserviceId,
      bot: {
        username: botUsername,
        displayname: (ctx.config.botDisplayname as string | null) ?? `${net.displayName} bridge bot`,
      },
      ephemeral_events: true,
      username_template: `${net.network}_{{.}}`,
    },
    encryption: { allow: encryption, default: encryption },
    env_config_prefix: prefix,
    logging: { min_level: "info", writers: [{ type: "stdout", format: "pretty-colored" }] },
  };
  files.push({
    name: "config.yaml",
    purpose: "config",
    description: `${net.displayName} bridge configuration (mautrix-go bridgev2 layout; the bridge adds defaults for every other key on start). Holds no secrets: they come from secrets.env through env_config_prefix.`,
    containsSecrets: false,
    content: yamlFile(
      [
        ...generatedBy(ctx, `mautrix-${net.network} configuration.`),
        `Secrets are read from the environment (${prefix}…, see secrets.env).`,
      ],
      config,
    ),
  });

  const envEntries: [string, string | undefined][] = entry()
    .secrets.filter((spec) => spec.env !== undefined && (spec.when === undefined || spec.when(ctx.config)))
    .map((spec) => [spec.env as string, ctx.secret(spec.key)]);
  if (doublePuppet) {
    const token = ctx.secret("double_puppet_as_token");
    // `double_puppet.secrets` is a map keyed by server name, which contains dots: the dotted variable form is used.
    envEntries.push([`${prefix}double_puppet.secrets.${ctx.serverName}`, token === undefined ? undefined : `as_token:${token}`]);
  }
  files.push({
    name: "secrets.env",
    purpose: "secrets",
    description: "Secrets of the bridge as environment variables (env_config_prefix), read by Docker Compose or a shell.",
    containsSecrets: true,
    content: envFile(generatedBy(ctx, `Secrets of mautrix-${net.network}. Keep this file 0600.`), envEntries),
  });

  const image = entry().image as string;
  if (ctx.mode === "managed") {
    files.push(
      composeFile(ctx, registrationSteps(registrationNames), [{ name: service, image, envFile: true, volumes: ["./:/data"] }]),
    );
  } else {
    files.push(
      instructionsFile(
        ctx,
        `Install the ${net.displayName} bridge (mautrix-${net.network})`,
        [
          ["Register the bridge with the homeserver:", ...registrationSteps(registrationNames).map((line) => `- ${line}`)],
          [
            "Run the bridge with this directory as its data directory and secrets.env in its environment, for example:",
            `    docker run -d --name ${service} --restart unless-stopped --env-file ${ctx.filesDir}/secrets.env -v ${ctx.filesDir}:/data ${image}`,
            "or, with the bridge binary:",
            `    cd ${ctx.filesDir} && set -a && . ./secrets.env && set +a && ${service} -c config.yaml`,
          ],
          [
            `Make sure the homeserver reaches the bridge at ${address} and the bridge reaches the homeserver at ${String(config.homeserver.address)}.`,
          ],
          [net.loginHint.replace("{bot}", `@${botUsername}:${ctx.serverName}`)],
        ],
        [
          "registration.yaml and secrets.env hold secrets: keep them readable by their service only.",
          "Changing the bot username, the bridge address or the appservice tokens changes the registration: copy it to the homeserver again and restart it.",
        ],
      ),
    );
  }
  return files;
}

/** A catalog entry for one mautrix bridge. */
export function mautrixBridge(net: MautrixNetwork): CatalogEntry {
  const prefix = `MAUTRIX_${net.network.toUpperCase()}_`;
  const entry: CatalogEntry = {
    id: `mautrix-${net.network}`,
    name: `${net.displayName} bridge (mautrix-${net.network})`,
    type: "bridge",
    description: net.description,
    maturity: net.maturity,
    deploymentModes: ["managed", "guided"],
    tags: ["mautrix", "puppeting", ...net.tags],
    homepage: `https://github.com/mautrix/${net.network}`,
    docsUrl: `https://docs.mau.fi/bridges/go/${net.network}/index.html`,
    image: `dock.mau.dev/mautrix/${net.network}:latest`,
    appservice: { id: net.network, senderLocalpart: "random" },
    configFields: [...commonFields(net.defaultPort, net.network), ...(net.networkFields ?? [])],
    secrets: [
      ...commonSecrets(prefix),
      ...(net.networkSecrets ?? []).map((secret) => ({ ...secret, env: `${prefix}${secret.env}` })),
    ],
    generate: (ctx) => generateMautrix(net, () => entry, ctx),
  };
  return entry;
}

const LOGIN = "Start a chat with {bot} and send `login` to link your account.";

/** The mautrix bridges of the catalog. Ports are each bridge's documented default. */
export const MAUTRIX_BRIDGES: CatalogEntry[] = [
  mautrixBridge({
    network: "telegram",
    displayName: "Telegram",
    description:
      "Puppeting bridge to Telegram: chats, groups and channels with replies, reactions, media and end-to-bridge encryption.",
    tags: ["telegram", "messaging"],
    defaultPort: 29317,
    commandPrefix: "!tg",
    maturity: "stable",
    networkSecrets: [
      { key: "api_id", env: "NETWORK__API_ID", description: "Telegram API ID from my.telegram.org.", required: true },
      { key: "api_hash", env: "NETWORK__API_HASH", description: "Telegram API hash from my.telegram.org.", required: true },
    ],
    loginHint: LOGIN,
  }),
  mautrixBridge({
    network: "whatsapp",
    displayName: "WhatsApp",
    description:
      "Puppeting bridge to WhatsApp through the multi-device web API: link it by scanning a QR code or with a pairing code.",
    tags: ["whatsapp", "messaging"],
    defaultPort: 29318,
    commandPrefix: "!wa",
    maturity: "stable",
    loginHint: `${LOGIN} Scan the QR code with WhatsApp on your phone (Linked devices).`,
  }),
  mautrixBridge({
    network: "signal",
    displayName: "Signal",
    description: "Puppeting bridge to Signal, linked as a secondary device of your Signal account.",
    tags: ["signal", "messaging", "encrypted"],
    defaultPort: 29328,
    commandPrefix: "!signal",
    maturity: "stable",
    loginHint: `${LOGIN} Scan the QR code with Signal on your phone (Linked devices).`,
  }),
  mautrixBridge({
    network: "discord",
    displayName: "Discord",
    description: "Puppeting bridge to Discord: direct messages, group DMs and guild channels.",
    tags: ["discord", "community", "gaming"],
    defaultPort: 29334,
    commandPrefix: "!discord",
    maturity: "beta",
    loginHint: `${LOGIN} Log in with a QR code from the Discord app.`,
  }),
  mautrixBridge({
    network: "slack",
    displayName: "Slack",
    description: "Puppeting bridge to Slack workspaces: channels, threads, reactions and files.",
    tags: ["slack", "work"],
    defaultPort: 29335,
    commandPrefix: "!slack",
    maturity: "beta",
    loginHint: `${LOGIN} Log in with your Slack session token or cookie as the bot explains.`,
  }),
  mautrixBridge({
    network: "meta",
    displayName: "Meta (Messenger & Instagram)",
    description: "Puppeting bridge to Facebook Messenger and Instagram direct messages.",
    tags: ["facebook", "messenger", "instagram", "messaging"],
    defaultPort: 29319,
    commandPrefix: "!meta",
    maturity: "beta",
    networkFields: [
      {
        key: "mode",
        label: "Platform",
        description: "Which Meta platform the bridge connects to; empty lets each user choose when logging in.",
        type: "enum",
        default: "",
        values: ["", "facebook", "facebook-tor", "messenger", "instagram"],
      },
    ],
    loginHint: `${LOGIN} Log in with your browser cookies as the bot explains.`,
  }),
  mautrixBridge({
    network: "gmessages",
    displayName: "Google Messages",
    description: "Puppeting bridge to Google Messages (SMS, MMS and RCS from an Android phone) through the web pairing.",
    tags: ["sms", "rcs", "android", "messaging"],
    defaultPort: 29336,
    commandPrefix: "!gm",
    maturity: "beta",
    loginHint: `${LOGIN} Pair it from Google Messages on your phone (Device pairing).`,
  }),
];
