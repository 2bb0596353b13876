import {
  bridgeAddress,
  composeFile,
  escapeRegex,
  generatedBy,
  instructionsFile,
  registrationFile,
  registrationSteps,
  yamlFile,
} from "./render.ts";
import { dockerNetworkField, homeserverUrl, homeserverUrlField } from "./shared-fields.ts";
import type { CatalogEntry, GeneratedFile, SecretSpec } from "./types.ts";

const appserviceTokens: SecretSpec[] = [
  {
    key: "as_token",
    description: "Appservice token (service → homeserver).",
    required: true,
    generate: "token",
    permanent: true,
  },
  {
    key: "hs_token",
    description: "Homeserver token (homeserver → service).",
    required: true,
    generate: "token",
    permanent: true,
  },
];

/** matrix-hookshot: webhooks, GitHub, GitLab, Jira and feeds. Reads its tokens from the registration at runtime. */
const hookshot: CatalogEntry = {
  id: "hookshot",
  name: "Hookshot (webhooks, GitHub, GitLab, Jira, feeds)",
  type: "bridge",
  description:
    "matrix-org's bridge for incoming and outgoing webhooks, RSS/Atom feeds, GitHub, GitLab, Jira and Figma notifications in rooms.",
  maturity: "stable",
  deploymentModes: ["managed", "guided"],
  tags: ["webhooks", "github", "gitlab", "jira", "rss", "notifications"],
  homepage: "https://github.com/matrix-org/matrix-hookshot",
  docsUrl: "https://matrix-org.github.io/matrix-hookshot/latest/setup.html",
  image: "halfshot/matrix-hookshot:latest",
  appservice: { id: "hookshot", senderLocalpart: "hookshot" },
  configFields: [
    {
      key: "port",
      label: "Appservice port",
      description: "Port hookshot listens on for the homeserver.",
      type: "port",
      default: 9993,
    },
    { key: "webhookPort", label: "Webhook port", description: "Port of the webhook listener.", type: "port", default: 9000 },
    {
      key: "webhookPublicUrl",
      label: "Public webhook URL",
      description:
        "Public URL prefix of generic webhooks, served by your reverse proxy to the webhook port (default: <public URL>/hookshot/webhook/).",
      type: "url",
      default: null,
    },
    { key: "feeds", label: "RSS/Atom feeds", description: "Let rooms subscribe to feeds.", type: "boolean", default: true },
    homeserverUrlField("the service"),
    {
      key: "bridgeAddress",
      label: "Hookshot address",
      description: "Address the homeserver uses to reach hookshot (default: http://hookshot:<port>).",
      type: "url",
      default: null,
    },
    dockerNetworkField,
  ],
  secrets: [
    ...appserviceTokens,
    {
      key: "passkey",
      description: "RSA private key (PEM) that encrypts tokens hookshot stores.",
      required: true,
      generate: "rsa4096",
    },
  ],
  generate(ctx) {
    const domain = escapeRegex(ctx.serverName);
    const address = bridgeAddress(ctx, "hookshot");
    const files: GeneratedFile[] = [
      registrationFile(
        ctx,
        {
          id: ctx.appserviceId,
          url: address,
          as_token: ctx.secret("as_token") ?? "",
          hs_token: ctx.secret("hs_token") ?? "",
          sender_localpart: ctx.senderLocalpart,
          rate_limited: false,
          namespaces: {
            rooms: [],
            users: ["_github_.*", "_gitlab_.*", "_jira_.*", "_webhooks_.*", "feeds"].map((name) => ({
              regex: `@${name}:${domain}`,
              exclusive: true,
            })),
            aliases: [{ regex: `#github_.+:${domain}`, exclusive: true }],
          },
          "de.sorunome.msc2409.push_ephemeral": true,
          receive_ephemeral: true,
        },
        "registration.yml",
      ),
      {
        name: "config.yml",
        purpose: "config",
        description: "Hookshot configuration (no secrets: tokens come from registration.yml, the key from passkey.pem).",
        containsSecrets: false,
        content: yamlFile(generatedBy(ctx, "matrix-hookshot configuration."), {
          bridge: { domain: ctx.serverName, url: homeserverUrl(ctx), port: ctx.config.port, bindAddress: "0.0.0.0" },
          passFile: "/data/passkey.pem",
          logging: { level: "info", colorize: false, json: false },
          listeners: [{ port: ctx.config.webhookPort, bindAddress: "0.0.0.0", resources: ["webhooks"] }],
          generic: {
            enabled: true,
            urlPrefix: (ctx.config.webhookPublicUrl as string | null) ?? `${ctx.homeserverPublicUrl}/hookshot/webhook/`,
            userIdPrefix: "_webhooks_",
            allowJsTransformationFunctions: false,
            waitForComplete: false,
          },
          feeds: { enabled: ctx.config.feeds === true, pollIntervalSeconds: 600 },
          permissions: [{ actor: ctx.serverName, services: [{ service: "*", level: "manageConnections" }] }],
        }),
      },
      {
        name: "passkey.pem",
        purpose: "key",
        description: "RSA key hookshot encrypts stored tokens with. Keep it: losing it makes those tokens unreadable.",
        containsSecrets: true,
        content: `${(ctx.secret("passkey") ?? "").trim()}\n`,
      },
    ];
    if (ctx.mode === "managed") {
      files.push(
        composeFile(ctx, registrationSteps(["registration.yml"]), [
          {
            name: "hookshot",
            image: hookshot.image as string,
            volumes: ["./:/data"],
            ports: [`${ctx.config.webhookPort}:${ctx.config.webhookPort}`],
          },
        ]),
      );
    } else {
      files.push(
        instructionsFile(ctx, "Install matrix-hookshot", [
          ["Register hookshot with the homeserver:", ...registrationSteps(["registration.yml"]).map((line) => `- ${line}`)],
          [
            "Run hookshot with this directory as /data:",
            `    docker run -d --name hookshot --restart unless-stopped -v ${ctx.filesDir}:/data -p ${ctx.config.webhookPort}:${ctx.config.webhookPort} ${hookshot.image}`,
          ],
          [
            `Proxy the public webhook URL to port ${ctx.config.webhookPort} and make sure the homeserver reaches hookshot at ${address}.`,
          ],
          [`Invite @hookshot:${ctx.serverName} to a room and send \`!hookshot help\`.`],
        ]),
      );
    }
    return files;
  },
};

/** Heisenbridge: an IRC bouncer bridge; configured by its registration and command-line flags. */
const heisenbridge: CatalogEntry = {
  id: "heisenbridge",
  name: "Heisenbridge (IRC bouncer)",
  type: "bridge",
  description: "A bouncer-style IRC bridge: each user connects to IRC networks through their own Matrix rooms.",
  maturity: "stable",
  deploymentModes: ["managed", "guided"],
  tags: ["irc", "bouncer"],
  homepage: "https://github.com/hifi/heisenbridge",
  docsUrl: "https://github.com/hifi/heisenbridge#readme",
  image: "hif1/heisenbridge:latest",
  appservice: { id: "heisenbridge", senderLocalpart: "heisenbridge" },
  configFields: [
    {
      key: "port",
      label: "Listen port",
      description: "Port heisenbridge listens on for the homeserver.",
      type: "port",
      default: 9898,
    },
    homeserverUrlField("the service"),
    {
      key: "bridgeAddress",
      label: "Bridge address",
      description: "Address the homeserver uses to reach heisenbridge (default: http://heisenbridge:<port>).",
      type: "url",
      default: null,
    },
    {
      key: "ownerUserId",
      label: "Owner",
      description: "Matrix user ID that owns the bridge (admin commands); empty: the first user to talk to it.",
      type: "string",
      default: null,
      pattern: "^@[^\\s:]+:\\S+$",
      maxLength: 255,
    },
    dockerNetworkField,
  ],
  secrets: appserviceTokens,
  generate(ctx) {
    const address = bridgeAddress(ctx, "heisenbridge");
    const args = ["-c", "/data/registration.yaml", "-l", "0.0.0.0", "-p", String(ctx.config.port)];
    if (typeof ctx.config.ownerUserId === "string") args.push("-o", ctx.config.ownerUserId);
    args.push(homeserverUrl(ctx));
    const files: GeneratedFile[] = [
      registrationFile(ctx, {
        id: ctx.appserviceId,
        url: address,
        as_token: ctx.secret("as_token") ?? "",
        hs_token: ctx.secret("hs_token") ?? "",
        rate_limited: false,
        sender_localpart: ctx.senderLocalpart,
        namespaces: { users: [{ regex: `@irc_.*:${escapeRegex(ctx.serverName)}`, exclusive: true }], aliases: [], rooms: [] },
      }),
    ];
    if (ctx.mode === "managed") {
      files.push(
        composeFile(ctx, registrationSteps(["registration.yaml"]), [
          {
            name: "heisenbridge",
            image: heisenbridge.image as string,
            command: args,
            volumes: ["./registration.yaml:/data/registration.yaml:ro"],
          },
        ]),
      );
    } else {
      files.push(
        instructionsFile(ctx, "Install Heisenbridge", [
          ["Register heisenbridge with the homeserver:", ...registrationSteps(["registration.yaml"]).map((line) => `- ${line}`)],
          [
            "Run heisenbridge with the registration (it reads its tokens from it):",
            `    docker run -d --name heisenbridge --restart unless-stopped -v ${ctx.filesDir}/registration.yaml:/data/registration.yaml:ro ${heisenbridge.image} ${args.join(" ")}`,
          ],
          [`Start a chat with @${ctx.senderLocalpart}:${ctx.serverName} and send \`help\`.`],
        ]),
      );
    }
    return files;
  },
};

/** Draupnir: moderation bot with policy lists, running as an ordinary user with its own access token. */
const draupnir: CatalogEntry = {
  id: "draupnir",
  name: "Draupnir (moderation)",
  type: "bot",
  description:
    "Moderation bot for protected rooms and spaces: shared ban/policy lists, spam protections and commands from a management room.",
  maturity: "stable",
  deploymentModes: ["managed", "guided"],
  tags: ["moderation", "anti-spam", "policy-lists"],
  homepage: "https://github.com/the-draupnir-project/Draupnir",
  docsUrl: "https://the-draupnir-project.github.io/draupnir-documentation/",
  image: "gnuxie/draupnir:latest",
  configFields: [
    homeserverUrlField("the service"),
    {
      key: "managementRoom",
      label: "Management room",
      description: "Room (ID or alias) where moderators give Draupnir commands; the bot must be invited to it.",
      type: "string",
      default: null,
      pattern: "^[!#]\\S+$",
      maxLength: 255,
    },
    {
      key: "protectAllJoinedRooms",
      label: "Protect every joined room",
      description: "Protect every room the bot is in, not only those listed with commands.",
      type: "boolean",
      default: false,
    },
    dockerNetworkField,
  ],
  secrets: [
    {
      key: "access_token",
      description: "Access token of Draupnir's own Matrix account (log in once with curl; never reuse a client's token).",
      required: true,
    },
  ],
  generate(ctx) {
    const token = ctx.secret("access_token");
    const files: GeneratedFile[] = [
      {
        name: "production.yaml",
        purpose: "config",
        description: "Draupnir's configuration; it holds the bot's access token.",
        containsSecrets: true,
        content: yamlFile(generatedBy(ctx, "Draupnir configuration."), {
          homeserverUrl: homeserverUrl(ctx),
          rawHomeserverUrl: homeserverUrl(ctx),
          accessToken: token ?? "SET-THE-access_token-SECRET-IN-THE-PORTAL",
          pantalaimon: { use: false },
          dataPath: "/data/storage",
          autojoinOnlyIfManager: true,
          recordIgnoredInvites: false,
          managementRoom: (ctx.config.managementRoom as string | null) ?? `#moderators:${ctx.serverName}`,
          protectAllJoinedRooms: ctx.config.protectAllJoinedRooms === true,
          backgroundDelayMS: 500,
        }),
      },
    ];
    const command = ["bot", "--draupnir-config", "/data/config/production.yaml"];
    if (ctx.mode === "managed") {
      files.push(
        composeFile(
          ctx,
          ["Create Draupnir's account and set its access token as the secret access_token first."],
          [
            {
              name: "draupnir",
              image: draupnir.image as string,
              command,
              volumes: ["./production.yaml:/data/config/production.yaml:ro", "./storage:/data/storage"],
            },
          ],
        ),
      );
    } else {
      files.push(
        instructionsFile(ctx, "Install Draupnir", [
          [
            "Create a Matrix account for Draupnir, log in once (e.g. with curl) and set its access token as the secret access_token in the portal.",
          ],
          ["Create the management room, invite Draupnir's account and set managementRoom."],
          [
            "Run Draupnir:",
            `    docker run -d --name draupnir --restart unless-stopped -v ${ctx.filesDir}/production.yaml:/data/config/production.yaml:ro -v ${ctx.filesDir}/storage:/data/storage ${draupnir.image} ${command.join(" ")}`,
          ],
        ]),
      );
    }
    return files;
  },
};

/** maubot: plugin-based bot manager with a web UI. */
const maubot: CatalogEntry = {
  id: "maubot",
  name: "maubot (plugin bots)",
  type: "bot",
  description: "A plugin-based bot system with a web management UI: reminders, RSS, polls, GitHub, dice and dozens more plugins.",
  maturity: "stable",
  deploymentModes: ["managed", "guided"],
  tags: ["bots", "plugins"],
  homepage: "https://github.com/maubot/maubot",
  docsUrl: "https://docs.mau.fi/maubot/",
  image: "dock.mau.dev/maubot/maubot:latest",
  configFields: [
    { key: "port", label: "Port", description: "Port of maubot's API and web UI.", type: "port", default: 29316 },
    homeserverUrlField("the service"),
    {
      key: "publicUrl",
      label: "Public URL",
      description: "Public base URL of maubot (its UI lives under /_matrix/maubot); default: the homeserver's public URL.",
      type: "url",
      default: null,
    },
    {
      key: "adminUsername",
      label: "Admin username",
      description: "Username for maubot's management UI (its password is the secret admin_password).",
      type: "string",
      default: "admin",
      pattern: "^[A-Za-z0-9._-]+$",
      maxLength: 64,
    },
    dockerNetworkField,
  ],
  secrets: [
    { key: "unshared_secret", description: "Secret maubot signs its login tokens with.", required: true, generate: "token" },
    { key: "admin_password", description: "Password of the management UI admin (set it yourself).", required: true },
  ],
  generate(ctx) {
    const password = ctx.secret("admin_password");
    const files: GeneratedFile[] = [
      {
        name: "config.yaml",
        purpose: "config",
        description: "maubot configuration; it holds the UI admin password and the signing secret.",
        containsSecrets: true,
        content: yamlFile(generatedBy(ctx, "maubot configuration (maubot adds defaults for other keys on start)."), {
          database: "sqlite:/data/maubot.db",
          plugin_directories: { upload: "/data/plugins", load: ["/data/plugins"], trash: "/data/trash" },
          plugin_databases: { sqlite: "/data/dbs" },
          server: {
            hostname: "0.0.0.0",
            port: ctx.config.port,
            public_url: (ctx.config.publicUrl as string | null) ?? ctx.homeserverPublicUrl,
            ui_base_path: "/_matrix/maubot",
            plugin_base_path: "/_matrix/maubot/plugin/",
            unshared_secret: ctx.secret("unshared_secret") ?? "generate",
          },
          homeservers: { [ctx.serverName]: { url: homeserverUrl(ctx), secret: null } },
          admins: { root: "", ...(password === undefined ? {} : { [String(ctx.config.adminUsername)]: password }) },
        }),
      },
    ];
    if (ctx.mode === "managed") {
      files.push(
        composeFile(
          ctx,
          ["Set the secret admin_password first, then log in to the UI under /_matrix/maubot."],
          [
            {
              name: "maubot",
              image: maubot.image as string,
              volumes: ["./:/data"],
              ports: [`${ctx.config.port}:${ctx.config.port}`],
            },
          ],
        ),
      );
    } else {
      files.push(
        instructionsFile(ctx, "Install maubot", [
          ["Set the secret admin_password in the portal (the configuration is regenerated with it)."],
          [
            "Run maubot with this directory as /data:",
            `    docker run -d --name maubot --restart unless-stopped -v ${ctx.filesDir}:/data -p ${ctx.config.port}:${ctx.config.port} ${maubot.image}`,
          ],
          [`Proxy /_matrix/maubot of the public URL to port ${ctx.config.port}, then log in to the UI and add bot clients.`],
        ]),
      );
    }
    return files;
  },
};

/** synapse-s3-storage-provider: media in S3-compatible object storage. A Python module inside Synapse. */
const s3Storage: CatalogEntry = {
  id: "synapse-s3-storage-provider",
  name: "S3 media storage (synapse-s3-storage-provider)",
  type: "homeserver_module",
  description:
    "Stores the homeserver's media in S3-compatible object storage (AWS S3, MinIO, Backblaze B2, Wasabi…) instead of local disk.",
  maturity: "stable",
  deploymentModes: ["guided"],
  tags: ["synapse", "media", "storage", "s3"],
  homepage: "https://github.com/matrix-org/synapse-s3-storage-provider",
  docsUrl: "https://github.com/matrix-org/synapse-s3-storage-provider#readme",
  configFields: [
    {
      key: "bucket",
      label: "Bucket",
      description: "Bucket name.",
      type: "string",
      default: "synapse-media",
      pattern: "^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$",
      maxLength: 63,
    },
    {
      key: "regionName",
      label: "Region",
      description: "Region of the bucket, if the provider needs one.",
      type: "string",
      default: null,
      maxLength: 64,
    },
    {
      key: "endpointUrl",
      label: "Endpoint URL",
      description: "Endpoint of a non-AWS provider (e.g. https://s3.example.org).",
      type: "url",
      default: null,
    },
    {
      key: "storeLocal",
      label: "Store local media",
      description: "Upload media created on this server.",
      type: "boolean",
      default: true,
    },
    {
      key: "storeRemote",
      label: "Store remote media",
      description: "Upload media cached from other servers.",
      type: "boolean",
      default: true,
    },
    {
      key: "storeSynchronous",
      label: "Upload synchronously",
      description: "Wait for the upload before answering.",
      type: "boolean",
      default: true,
    },
  ],
  secrets: [
    { key: "access_key_id", description: "Access key ID of the bucket's credentials.", required: true },
    { key: "secret_access_key", description: "Secret access key of the bucket's credentials.", required: true },
  ],
  generate(ctx) {
    const config: Record<string, unknown> = { bucket: ctx.config.bucket };
    if (ctx.config.regionName) config.region_name = ctx.config.regionName;
    if (ctx.config.endpointUrl) config.endpoint_url = ctx.config.endpointUrl;
    config.access_key_id = ctx.secret("access_key_id") ?? "SET-access_key_id-IN-THE-PORTAL";
    config.secret_access_key = ctx.secret("secret_access_key") ?? "SET-secret_access_key-IN-THE-PORTAL";
    return [
      {
        name: "homeserver-snippet.yaml",
        purpose: "homeserver-config",
        description: "The media_storage_providers section to merge into homeserver.yaml (holds the bucket credentials).",
        containsSecrets: true,
        content: yamlFile(generatedBy(ctx, "Merge into homeserver.yaml."), {
          media_storage_providers: [
            {
              module: "s3_storage_provider.S3StorageProviderBackend",
              store_local: ctx.config.storeLocal,
              store_remote: ctx.config.storeRemote,
              store_synchronous: ctx.config.storeSynchronous,
              config,
            },
          ],
        }),
      },
      instructionsFile(
        ctx,
        "Install synapse-s3-storage-provider",
        [
          [
            "Install the module into Synapse's Python environment: `pip install synapse-s3-storage-provider` (or build a Synapse image that includes it).",
          ],
          ["Merge homeserver-snippet.yaml into homeserver.yaml (it holds credentials: keep the file private)."],
          ["Restart Synapse."],
          ["Optionally move existing media with the module's `s3_media_upload` script, e.g. from a daily cron job."],
        ],
        ["Modules run inside the homeserver: the portal cannot check them beyond homeserver reachability."],
      ),
    ];
  },
};

/** synapse-simple-antispam: refuse invites from listed homeservers (a spam-checker module). */
const simpleAntispam: CatalogEntry = {
  id: "synapse-simple-antispam",
  name: "Invite spam filter (synapse-simple-antispam)",
  type: "homeserver_module",
  description: "A small Synapse spam-checker module that blocks invites from homeservers you list.",
  maturity: "stable",
  deploymentModes: ["guided"],
  tags: ["synapse", "anti-spam", "module"],
  homepage: "https://github.com/t2bot/synapse-simple-antispam",
  docsUrl: "https://github.com/t2bot/synapse-simple-antispam#readme",
  configFields: [
    {
      key: "blockedHomeservers",
      label: "Blocked homeservers",
      description: "Server names whose invites are refused.",
      type: "stringList",
      default: [],
      pattern: "^[A-Za-z0-9.-]+(?::\\d{1,5})?$",
      maxItems: 500,
    },
  ],
  secrets: [],
  generate(ctx) {
    return [
      {
        name: "homeserver-snippet.yaml",
        purpose: "homeserver-config",
        description: "The modules entry to merge into homeserver.yaml.",
        containsSecrets: false,
        content: yamlFile(generatedBy(ctx, "Merge into the modules list of homeserver.yaml."), {
          modules: [
            { module: "synapse_simple_antispam.AntiSpamInvites", config: { blocked_homeservers: ctx.config.blockedHomeservers } },
          ],
        }),
      },
      instructionsFile(ctx, "Install synapse-simple-antispam", [
        [
          "Install the module into Synapse's Python environment: `pip install git+https://github.com/t2bot/synapse-simple-antispam#egg=synapse-simple-antispam`.",
        ],
        ["Merge homeserver-snippet.yaml into the modules list of homeserver.yaml."],
        ["Restart Synapse."],
      ]),
    ];
  },
};

/** ntfy: a push server (UnifiedPush distributor) for Matrix clients on phones without Google services. */
const ntfy: CatalogEntry = {
  id: "ntfy",
  name: "ntfy push notifications (UnifiedPush)",
  type: "external_service",
  description:
    "A self-hosted ntfy server: push notifications for Matrix apps on Android phones without Google services (UnifiedPush).",
  maturity: "stable",
  deploymentModes: ["managed", "guided"],
  tags: ["push", "unifiedpush", "notifications", "android"],
  homepage: "https://ntfy.sh/",
  docsUrl: "https://docs.ntfy.sh/install/",
  image: "binwiederhier/ntfy:latest",
  configFields: [
    {
      key: "baseUrl",
      label: "Public URL",
      description: "Public URL of the ntfy server (default: https://ntfy.<server name>).",
      type: "url",
      default: null,
    },
    {
      key: "port",
      label: "Host port",
      description: "Port published on the host for your reverse proxy.",
      type: "port",
      default: 2586,
    },
    {
      key: "upstreamBaseUrl",
      label: "Upstream server",
      description: "Server that relays instant notifications to iOS devices.",
      type: "url",
      default: "https://ntfy.sh",
    },
    dockerNetworkField,
  ],
  secrets: [],
  generate(ctx) {
    const baseUrl = (ctx.config.baseUrl as string | null) ?? `https://ntfy.${ctx.serverName}`;
    const files: GeneratedFile[] = [
      {
        name: "server.yml",
        purpose: "config",
        description: "ntfy server configuration.",
        containsSecrets: false,
        content: yamlFile(generatedBy(ctx, "ntfy server configuration."), {
          "base-url": baseUrl,
          "listen-http": ":80",
          "behind-proxy": true,
          "cache-file": "/var/cache/ntfy/cache.db",
          "upstream-base-url": ctx.config.upstreamBaseUrl,
        }),
      },
    ];
    const notes = [
      "Synapse refuses to push to private addresses by default: if ntfy resolves to one, add it to ip_range_whitelist in homeserver.yaml.",
      `In the phone's ntfy app, add the server ${baseUrl}; Matrix apps then offer it as UnifiedPush distributor.`,
    ];
    if (ctx.mode === "managed") {
      files.push(
        composeFile(ctx, notes, [
          {
            name: "ntfy",
            image: ntfy.image as string,
            command: ["serve"],
            volumes: ["./server.yml:/etc/ntfy/server.yml:ro", "./cache:/var/cache/ntfy"],
            ports: [`${ctx.config.port}:80`],
          },
        ]),
      );
    } else {
      files.push(
        instructionsFile(
          ctx,
          "Install an ntfy push server",
          [
            [
              "Run ntfy with the generated configuration:",
              `    docker run -d --name ntfy --restart unless-stopped -v ${ctx.filesDir}/server.yml:/etc/ntfy/server.yml:ro -p ${ctx.config.port}:80 ${ntfy.image} serve`,
            ],
            [`Serve ${baseUrl} through your reverse proxy (with TLS) to port ${ctx.config.port}.`],
          ],
          notes,
        ),
      );
    }
    return files;
  },
};

export const OTHER_ENTRIES: CatalogEntry[] = [hookshot, heisenbridge, draupnir, maubot, s3Storage, simpleAntispam, ntfy];
