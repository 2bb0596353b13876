import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { parse, parseDocument } from "yaml";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import type { PortalClient } from "./support/portal-client.ts";
import {
  addServer,
  FULL_DOCKER,
  NO_DOCKER,
  startPortalWithHomeserver,
  startSimulator,
  stopPortalWithHomeserver,
  type TestPortal,
} from "./support/portal-harness.ts";

const CATALOG_IDS = [
  "mautrix-telegram",
  "mautrix-whatsapp",
  "mautrix-signal",
  "mautrix-discord",
  "mautrix-slack",
  "mautrix-meta",
  "mautrix-gmessages",
  "heisenbridge",
  "hookshot",
  "draupnir",
  "maubot",
  "synapse-s3-storage-provider",
  "synapse-simple-antispam",
  "ntfy",
];

interface FileInfo {
  name: string;
  purpose: string;
  path: string;
  mode: string;
  containsSecrets: boolean;
  redacted: boolean;
  content: string;
}

describe("integrations", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  let admin: PortalClient;
  let serverId: string;
  before(async () => {
    ({ portal, hs, admin, serverId } = await startPortalWithHomeserver({ homeserver: { serverName: "int.test" } }));
  });
  after(() => stopPortalWithHomeserver(portal, hs));

  const base = (query = `?serverId=${serverId}`) => `/api/admin/integrations${query}`;
  async function install(catalogId: string, config?: Record<string, unknown>, server = serverId) {
    const reply = await admin.post(base(`?serverId=${server}`), { catalogId, ...(config ? { config } : {}) });
    assert.equal(reply.status, 201, reply.text);
    return reply.body as {
      integration: Record<string, unknown> & { id: string; files: FileInfo[] };
      deployment: Record<string, unknown>;
    };
  }
  const fileOf = (integration: { files: FileInfo[] }, name: string) => {
    const file = integration.files.find((candidate) => candidate.name === name);
    assert.ok(file, `${name} generated`);
    return file;
  };
  async function actions(target: string): Promise<string[]> {
    const reply = await admin.get(`/api/admin/audit?serverId=${serverId}&limit=200`);
    return (reply.body.logs as { action: string; target: string }[])
      .filter((entry) => entry.target === target)
      .map((entry) => entry.action)
      .reverse();
  }

  it("lists the catalog, filtered by type and by name", async () => {
    const all = await admin.get(base("?view=catalog"));
    assert.equal(all.status, 200);
    const catalog = all.body.catalog as Record<string, unknown>[];
    for (const id of CATALOG_IDS)
      assert.ok(
        catalog.some((entry) => entry.id === id),
        id,
      );
    for (const entry of catalog) {
      for (const field of ["id", "name", "type", "description", "maturity", "deploymentModes", "tags"])
        assert.ok(field in entry, field);
    }
    const types = async (type: string) =>
      ((await admin.get(base(`?view=catalog&type=${type}`))).body.catalog as { id: string }[]).map((e) => e.id);
    assert.ok((await types("bridge")).includes("mautrix-signal"));
    assert.deepEqual((await types("bot")).sort(), ["draupnir", "maubot"]);
    assert.deepEqual((await types("homeserver_module")).sort(), ["synapse-s3-storage-provider", "synapse-simple-antispam"]);
    assert.deepEqual(await types("external_service"), ["ntfy"]);
    const search = (await admin.get(base("?view=catalog&search=WhatsApp"))).body.catalog as { id: string }[];
    assert.deepEqual(
      search.map((e) => e.id),
      ["mautrix-whatsapp"],
    );
    assert.equal((await admin.get(base("?view=catalog&type=spaceship"))).status, 400);
    assert.equal((await admin.get(base("?view=catalog&type=bridge&search=nothing-like-this"))).body.catalog.length, 0);
  });

  it("installs a mautrix bridge in guided mode with a registration the homeserver accepts", async () => {
    portal.capabilities = { ...NO_DOCKER };
    const { integration, deployment } = await install("mautrix-whatsapp");
    assert.deepEqual(
      [integration.status, integration.enabled, integration.deploymentMode, integration.type, integration.version],
      ["installed", false, "guided", "bridge", "1"],
    );
    assert.match(String(deployment.reason), /not available/);
    const names = integration.files.map((file) => file.name).sort();
    assert.deepEqual(names, ["INSTALL.md", "config.yaml", "registration.yaml", "secrets.env"]);
    for (const file of integration.files) {
      assert.equal(file.mode, file.containsSecrets ? "0600" : "0644", file.name);
      assert.equal(statSync(file.path).mode & 0o777, file.containsSecrets ? 0o600 : 0o644, `${file.name} on disk`);
      if (file.containsSecrets) assert.match(file.content, /<secret:/, `${file.name} is shown redacted`);
    }
    assert.equal(statSync(integration.filesDir as string).mode & 0o777, 0o700);

    const registrationText = readFileSync(fileOf(integration, "registration.yaml").path, "utf8");
    const registration = parse(registrationText);
    assert.equal(registration.id, "whatsapp");
    assert.match(registration.sender_localpart, /^[A-Za-z0-9]{32}$/);
    assert.equal(registration.url, "http://mautrix-whatsapp:29318");
    assert.equal(registration.rate_limited, false);
    assert.ok(registration.as_token.length >= 40 && registration.hs_token.length >= 40);
    assert.notEqual(registration.as_token, registration.hs_token);
    assert.deepEqual(registration.namespaces.users, [
      { regex: "^@whatsappbot:int\\.test$", exclusive: true },
      { regex: "^@whatsapp_.*:int\\.test$", exclusive: true },
    ]);
    const config = parse(readFileSync(fileOf(integration, "config.yaml").path, "utf8"));
    assert.equal(config.homeserver.domain, "int.test");
    assert.equal(config.appservice.id, "whatsapp");
    assert.equal(config.env_config_prefix, "MAUTRIX_WHATSAPP_");
    const env = readFileSync(fileOf(integration, "secrets.env").path, "utf8");
    assert.ok(env.includes(`MAUTRIX_WHATSAPP_APPSERVICE__AS_TOKEN='${registration.as_token}'`));
    assert.match(fileOf(integration, "INSTALL.md").content, /app_service_config_files/);

    // Health before the homeserver knows the registration: whoami with the as_token is refused.
    const before = await admin.patch(`/api/admin/integrations/${integration.id}`, { action: "health_check" });
    assert.equal(before.status, 200);
    assert.deepEqual([before.body.health.healthy, before.body.health.appservice.registered], [false, false]);
    assert.match(before.body.health.errors.join(" "), /app_service_config_files/);
    // The operator installs the file and restarts the homeserver: the simulator validates it like Synapse's loader.
    hs.registerAppservice(registrationText);
    const health = (await admin.patch(`/api/admin/integrations/${integration.id}`, { action: "health_check" })).body.health;
    assert.equal(health.healthy, true, JSON.stringify(health.errors));
    assert.deepEqual(health.appservice, {
      id: "whatsapp",
      expectedUserId: `@${registration.sender_localpart}:int.test`,
      registered: true,
      userId: `@${registration.sender_localpart}:int.test`,
      reason: null,
    });
    assert.deepEqual([health.homeserverReachable, health.files.present, health.files.writable], [true, true, true]);
    const detail = (await admin.get(`/api/admin/integrations/${integration.id}`)).body.integration;
    assert.equal(detail.healthy, true);
    assert.equal(detail.health.healthy, true);
    assert.deepEqual(await actions(integration.id), ["integration.installed"], "health checks are not audited");

    assert.equal((await admin.post(base(), { catalogId: "mautrix-whatsapp" })).status, 409, "one installation per server");
    assert.equal((await admin.post(base(), { catalogId: "mautrix-nothing" })).status, 400);
    assert.equal((await admin.post(base("?serverId=nope"), { catalogId: "ntfy" })).status, 404);
    assert.equal((await admin.post(base(), { catalogId: "ntfy", config: { port: 80 } })).status, 400);
  });

  it("keeps appservice ids and tokens unique per server, on every installation", async () => {
    portal.capabilities = { ...NO_DOCKER };
    const installed = await Promise.all(
      ["mautrix-signal", "mautrix-slack", "heisenbridge", "mautrix-meta"].map((id) => install(id)),
    );
    const list = (await admin.get(base())).body.integrations as { id: string; appserviceId: string | null }[];
    const registrations = list
      .filter((integration) => integration.appserviceId !== null)
      .map((integration) => {
        const detail = installed.find((entry) => entry.integration.id === integration.id)?.integration;
        const path = detail?.files.find((file) => file.purpose === "registration")?.path;
        return parse(readFileSync(path ?? `${portal.dataDir}/integrations/${integration.id}/registration.yaml`, "utf8"));
      });
    assert.ok(registrations.length >= 5);
    const ids = registrations.map((r) => r.id);
    const tokens = registrations.flatMap((r) => [r.as_token, r.hs_token]);
    assert.equal(new Set(ids).size, ids.length, "ids unique");
    assert.equal(new Set(tokens).size, tokens.length, "tokens unique");
    // Every registration loads side by side, as Synapse requires (it refuses duplicate ids and as_tokens).
    const sim = await startSimulator({ serverName: "int.test", appserviceRegistrations: registrations });
    await sim.close();

    const heisenbridge = installed.find((entry) => entry.integration.catalogId === "heisenbridge")?.integration as {
      files: FileInfo[];
    };
    assert.equal(parse(fileOf(heisenbridge, "registration.yaml").content).sender_localpart, "heisenbridge");

    // The same catalog entry on a second server gets its own tokens.
    const other = await addServer(admin, hs);
    const second = await install("mautrix-signal", undefined, other.id);
    const signalOne = installed[0]?.integration as { files: FileInfo[] };
    const one = parse(readFileSync(fileOf(signalOne, "registration.yaml").path, "utf8"));
    const two = parse(readFileSync(fileOf(second.integration, "registration.yaml").path, "utf8"));
    assert.notEqual(one.as_token, two.as_token);
    assert.notEqual(one.hs_token, two.hs_token);
  });

  it("picks managed mode when Docker, its CLI and Compose are present, guided otherwise", async () => {
    const server = await addServer(admin, hs);
    portal.capabilities = { ...FULL_DOCKER };
    const managed = await install("ntfy", { baseUrl: "https://push.int.test" }, server.id);
    assert.equal(managed.integration.deploymentMode, "managed");
    const compose = parse(fileOf(managed.integration, "compose.yaml").content);
    assert.equal(compose.services.ntfy.image, "binwiederhier/ntfy:latest");
    assert.deepEqual(compose.networks, { matrix: { external: true } });
    assert.equal(
      managed.integration.files.some((file) => file.name === "INSTALL.md"),
      false,
    );
    assert.equal(parse(fileOf(managed.integration, "server.yml").content)["base-url"], "https://push.int.test");

    const module = await install("synapse-simple-antispam", { blockedHomeservers: ["spam.example"] }, server.id);
    assert.equal(module.integration.deploymentMode, "guided", "modules are installed by hand");
    assert.match(String(module.deployment.reason), /guided only/);

    portal.capabilities = { dockerSocket: true, dockerCli: true, dockerCompose: false };
    const noCompose = await install("heisenbridge", undefined, server.id);
    assert.equal(noCompose.integration.deploymentMode, "guided");
    assert.match(String(noCompose.deployment.reason), /Docker Compose/);

    portal.capabilities = { ...FULL_DOCKER };
    await admin.put(`/api/admin/servers/${server.id}`, { managedMode: "guided" });
    const forced = await install("maubot", undefined, server.id);
    assert.equal(forced.integration.deploymentMode, "guided", "the server asks for guided");
  });

  it("generates a compose project for a mautrix bridge in managed mode that fits its registration", async () => {
    const server = await addServer(admin, hs);
    portal.capabilities = { ...FULL_DOCKER };
    const { integration, deployment } = await install("mautrix-telegram", undefined, server.id);
    assert.deepEqual([integration.deploymentMode, deployment.mode], ["managed", "managed"]);
    const names = integration.files.map((file) => file.name).sort();
    assert.deepEqual(names, ["compose.yaml", "config.yaml", "registration.yaml", "secrets.env"], "no INSTALL.md");

    const composeFile = fileOf(integration, "compose.yaml");
    assert.equal(composeFile.content, readFileSync(composeFile.path, "utf8"), "the file on disk is the one shown");
    const document = parseDocument(composeFile.content);
    assert.deepEqual(document.errors, []);
    const compose = document.toJS();
    assert.deepEqual(Object.keys(compose.services), ["mautrix-telegram"]);
    const service = compose.services["mautrix-telegram"];
    assert.match(service.image, /^dock\.mau\.dev\/mautrix\/telegram:/);
    assert.equal(service.restart, "unless-stopped");
    assert.deepEqual(service.env_file, ["./secrets.env"]);
    assert.ok(existsSync(`${integration.filesDir}/secrets.env`), "the env_file is next to compose.yaml");
    // The image reads /data/config.yaml and /data/registration.yaml: this folder, mounted as /data, holds both.
    assert.deepEqual(service.volumes, ["./:/data"]);
    for (const name of ["config.yaml", "registration.yaml"])
      assert.equal(fileOf(integration, name).path, `${integration.filesDir}/${name}`);
    assert.deepEqual(service.networks, ["matrix"]);
    assert.deepEqual(compose.networks, { matrix: { external: true } });

    // The homeserver reaches the bridge by its service name on that network, at the port the bridge listens on.
    const registration = parse(readFileSync(fileOf(integration, "registration.yaml").path, "utf8"));
    const config = parse(readFileSync(fileOf(integration, "config.yaml").path, "utf8"));
    assert.equal(registration.url, `http://mautrix-telegram:${config.appservice.port}`);
    assert.equal(config.appservice.hostname, "0.0.0.0", "listens on the container's network, not its loopback");
    assert.match(config.database.uri, /^file:\/data\//, "the database lives in the mounted folder");

    // The steps to load the registration into the homeserver head the file, as comments.
    const header = composeFile.content
      .split("\n")
      .filter((line) => line.startsWith("#"))
      .map((line) => line.replace(/^# ?/, ""))
      .join("\n");
    assert.match(header, /Copy registration\.yaml to the homeserver/);
    assert.match(header, /app_service_config_files:\n\s+- \/data\/appservices\/registration\.yaml/);
    assert.match(header, /Restart the homeserver/);
    assert.match(header, /docker compose up -d/);

    // The registration it tells the operator to install is one the homeserver accepts, and the check then passes.
    hs.registerAppservice(readFileSync(fileOf(integration, "registration.yaml").path, "utf8"));
    const health = (await admin.patch(`/api/admin/integrations/${integration.id}`, { action: "health_check" })).body.health;
    assert.equal(health.appservice.registered, true, JSON.stringify(health.appservice));
    assert.deepEqual([health.files.present, health.files.upToDate], [true, true]);
  });

  it("versions configuration changes, regenerates files, and validates settings", async () => {
    portal.capabilities = { ...NO_DOCKER };
    const server = await addServer(admin, hs);
    const { integration } = await install("mautrix-telegram", undefined, server.id);
    const put = (config: unknown) => admin.put(`/api/admin/integrations/${integration.id}`, { config });
    const updated = await put({
      port: 29400,
      doublePuppet: true,
      adminUserId: "@boss:int.test",
      homeserverUrl: "http://synapse:8008",
    });
    assert.equal(updated.status, 200, updated.text);
    const detail = updated.body.integration;
    assert.deepEqual([detail.version, detail.configVersion], ["2", 2]);
    assert.deepEqual(
      detail.snapshots.map((s: { version: number; reason: string }) => [s.version, s.reason]),
      [
        [1, "install"],
        [2, "update"],
      ],
    );
    assert.equal(detail.snapshots[0].config.port, 29317);
    assert.equal(detail.snapshots[1].config.port, 29400);
    const config = parse(readFileSync(fileOf(detail, "config.yaml").path, "utf8"));
    assert.deepEqual([config.appservice.port, config.homeserver.address], [29400, "http://synapse:8008"]);
    assert.equal(config.bridge.permissions["@boss:int.test"], "admin");
    const doublePuppet = parse(readFileSync(fileOf(detail, "doublepuppet-registration.yaml").path, "utf8"));
    assert.equal(doublePuppet.url, null);
    assert.deepEqual(doublePuppet.namespaces.users, [{ regex: "@.*:int\\.test", exclusive: false }]);
    assert.ok(detail.secretKeys.includes("double_puppet_as_token"));
    assert.match(
      readFileSync(fileOf(detail, "secrets.env").path, "utf8"),
      /MAUTRIX_TELEGRAM_double_puppet\.secrets\.int\.test='as_token:/,
    );
    assert.deepEqual(detail.missingSecrets.sort(), ["api_hash", "api_id"]);

    for (const bad of [{ port: 80 }, { port: "29317" }, { warpDrive: true }, { homeserverUrl: "ftp://x" }, {}, []]) {
      assert.equal((await put(bad)).status, 400, JSON.stringify(bad));
    }
    const back = await put({ doublePuppet: null, port: null });
    assert.equal(back.body.integration.config.port, 29317);
    assert.equal(
      back.body.integration.files.some((file: FileInfo) => file.name === "doublepuppet-registration.yaml"),
      false,
      "switching double puppeting off removes its registration",
    );
    assert.equal(existsSync(`${detail.filesDir}/doublepuppet-registration.yaml`), false);
    const auditActions = await admin.get(`/api/admin/audit?serverId=${server.id}&limit=50`);
    assert.equal(
      (auditActions.body.logs as { action: string; target: string }[]).filter(
        (e) => e.target === integration.id && e.action === "integration.updated",
      ).length,
      2,
    );
  });

  it("stores secrets sealed, lists keys only, rotates on the same key, and protects the appservice tokens", async () => {
    portal.capabilities = { ...NO_DOCKER };
    const server = await addServer(admin, hs);
    const { integration } = await install("mautrix-telegram", undefined, server.id);
    const secrets = `/api/admin/integrations/${integration.id}/secrets`;
    const listed = (await admin.get(secrets)).body.secrets as Record<string, unknown>[];
    assert.deepEqual(listed.map((s) => s.key).sort(), ["as_token", "hs_token", "pickle_key", "provisioning_shared_secret"]);
    for (const secret of listed)
      assert.deepEqual(Object.keys(secret).sort(), ["createdAt", "generated", "id", "key", "rotatedAt"]);

    const created = await admin.post(secrets, { key: "api_hash", value: "0123456789abcdef0123456789abcdef" });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual([created.body.rotated, created.body.secret.rotatedAt], [false, null]);
    const rotated = await admin.post(secrets, { key: "api_hash", value: "fedcba9876543210fedcba9876543210" });
    assert.equal(rotated.status, 200);
    assert.equal(rotated.body.rotated, true);
    assert.ok(rotated.body.secret.rotatedAt);
    assert.equal(rotated.body.secret.id, created.body.secret.id);
    await admin.post(secrets, { key: "api_id", value: "123456" });
    const env = readFileSync(`${integration.filesDir}/secrets.env`, "utf8");
    assert.ok(env.includes("MAUTRIX_TELEGRAM_NETWORK__API_HASH='fedcba9876543210fedcba9876543210'"));
    assert.equal(readFileSync(`${integration.filesDir}/config.yaml`, "utf8").includes("fedcba98"), false);
    assert.equal((await admin.get(`/api/admin/integrations/${integration.id}`)).body.integration.missingSecrets.length, 0);

    assert.equal((await admin.post(secrets, { key: "api_id", value: "it's" })).status, 400, "quotes cannot go into secrets.env");
    assert.equal((await admin.post(secrets, { key: "api_id", value: "a\nb" })).status, 400);
    assert.equal((await admin.post(secrets, { key: "as_token", value: "short" })).status, 400);

    // Rotating the as_token rewrites the registration; reusing another integration's token is refused.
    const newToken = "rotated-as-token-0123456789abcdefghij";
    assert.equal((await admin.post(secrets, { key: "as_token", value: newToken })).status, 200);
    assert.equal(parse(readFileSync(`${integration.filesDir}/registration.yaml`, "utf8")).as_token, newToken);
    const neighbour = await install("mautrix-gmessages", undefined, server.id);
    const stolen = await admin.post(`/api/admin/integrations/${neighbour.integration.id}/secrets`, {
      key: "as_token",
      value: newToken,
    });
    assert.deepEqual([stolen.status, stolen.body.errorCode], [409, "CONFLICT"]);

    const asToken = listed.find((s) => s.key === "as_token") as { id: string };
    assert.equal((await admin.delete(`${secrets}/${asToken.id}`)).status, 409);
    const apiId = ((await admin.get(secrets)).body.secrets as { id: string; key: string }[]).find((s) => s.key === "api_id");
    assert.deepEqual((await admin.delete(`${secrets}/${apiId?.id}`)).body, { deleted: true });
    assert.equal((await admin.delete(`${secrets}/${apiId?.id}`)).status, 404);
    assert.match(
      readFileSync(`${integration.filesDir}/secrets.env`, "utf8"),
      /# MAUTRIX_TELEGRAM_NETWORK__API_ID is not set yet/,
    );
    const log = await admin.get(`/api/admin/audit?serverId=${server.id}&limit=50`);
    const mine = (log.body.logs as { action: string; target: string; detail: { key: string } }[]).filter(
      (e) => e.target === integration.id,
    );
    assert.equal(mine.filter((e) => e.action === "integration.secret.rotated").length, 4);
    assert.equal(mine.filter((e) => e.action === "integration.secret.deleted").length, 1);
  });

  it("accepts any reasonable secret key (UPPER_CASE, dotted.name, the diagnostics' names) and refuses unprintable ones", async () => {
    portal.capabilities = { ...NO_DOCKER };
    const server = await addServer(admin, hs);
    const { integration } = await install("mautrix-telegram", undefined, server.id);
    const secrets = `/api/admin/integrations/${integration.id}/secrets`;
    const keys = async () => ((await admin.get(secrets)).body.secrets as { key: string }[]).map((s) => s.key).sort();
    const envFile = `${integration.filesDir}/secrets.env`;
    const configYaml = readFileSync(`${integration.filesDir}/config.yaml`, "utf8");

    // An admin's own secrets: stored sealed under the key as given (trimmed), rotated on the same key, in no file.
    const upper = await admin.post(secrets, { key: "UPPER_CASE", value: "upper-value-0123" });
    assert.equal(upper.status, 201, upper.text);
    assert.equal(upper.body.secret.key, "UPPER_CASE");
    assert.equal((await admin.post(secrets, { key: "UPPER_CASE", value: "upper-value-4567" })).status, 200, "rotated");
    const dotted = await admin.post(secrets, { key: " dotted.name ", value: "a value\nover two lines" });
    assert.equal(dotted.status, 201, dotted.text);
    assert.equal(dotted.body.secret.key, "dotted.name");
    const longest = "K".repeat(128);
    assert.equal((await admin.post(secrets, { key: longest, value: "v" })).status, 201, "128 characters");
    // A value that happens to appear in a generated file is no "generator bug": the admin's secrets reach no file.
    const common = configYaml.split("\n").find((line) => line.trim().length >= 8) ?? "";
    assert.equal((await admin.post(secrets, { key: "Mixed-Case key", value: common })).status, 201);
    assert.equal((await admin.put(`/api/admin/integrations/${integration.id}`, { config: { encryption: true } })).status, 200);
    const env = readFileSync(envFile, "utf8");
    for (const value of ["upper-value", "over two lines"]) assert.equal(env.includes(value), false, `${value} in secrets.env`);

    // The environment-style name the diagnostics list for a missing input sets that very input.
    const diagnostics = await admin.get(`/api/admin/integrations/diagnostics?serverId=${server.id}`);
    assert.ok((diagnostics.body.diagnostics.envVarsMissing as string[]).includes("MAUTRIX_TELEGRAM_NETWORK__API_ID"));
    const viaEnvName = await admin.post(secrets, { key: "MAUTRIX_TELEGRAM_NETWORK__API_ID", value: "123456" });
    assert.equal(viaEnvName.status, 201, viaEnvName.text);
    assert.equal(viaEnvName.body.secret.key, "api_id");
    assert.ok(readFileSync(envFile, "utf8").includes("MAUTRIX_TELEGRAM_NETWORK__API_ID='123456'"));
    assert.equal(
      (await admin.post(secrets, { key: "MAUTRIX_TELEGRAM_APPSERVICE__AS_TOKEN", value: "short" })).status,
      400,
      "as_token's rule",
    );

    const before = await keys();
    assert.ok(before.includes("UPPER_CASE") && before.includes("dotted.name") && before.includes(longest));
    const unprintable = ["a\u0000b", "line\nbreak", "tab\there", "c1\u0085", "\u202eevil", "zero\u200bwidth", "\ud800"];
    for (const key of ["", "   ", "K".repeat(129), ...unprintable, 42, null]) {
      const refused = await admin.post(secrets, { key, value: "some-value" });
      assert.equal(refused.status, 400, `${JSON.stringify(key)}: ${refused.text}`);
      assert.equal(refused.body.errorCode, "BAD_REQUEST");
      assert.match(refused.body.error, /^Invalid json: key: /);
    }
    assert.deepEqual(await keys(), before, "nothing stored by the refused requests");
  });

  it("enables, disables, and uninstalls only when disabled (files removed)", async () => {
    portal.capabilities = { ...NO_DOCKER };
    const server = await addServer(admin, hs);
    const { integration } = await install("draupnir", { managementRoom: "#mods:int.test" }, server.id);
    const patch = (action: string) => admin.patch(`/api/admin/integrations/${integration.id}`, { action });
    const enabled = await patch("enable");
    assert.deepEqual([enabled.body.integration.status, enabled.body.integration.enabled], ["active", true]);
    const refused = await admin.delete(`/api/admin/integrations/${integration.id}`);
    assert.deepEqual([refused.status, refused.body.errorCode], [409, "CONFLICT"]);
    const disabled = await patch("disable");
    assert.deepEqual([disabled.body.integration.status, disabled.body.integration.enabled], ["inactive", false]);
    assert.equal((await patch("reboot")).status, 400);
    assert.ok(existsSync(integration.filesDir as string));
    assert.deepEqual((await admin.delete(`/api/admin/integrations/${integration.id}`)).body, { deleted: true });
    assert.equal(existsSync(integration.filesDir as string), false);
    assert.equal((await admin.get(`/api/admin/integrations/${integration.id}`)).status, 404);
    const log = await admin.get(`/api/admin/audit?serverId=${server.id}&limit=50`);
    assert.deepEqual(
      (log.body.logs as { action: string; target: string }[])
        .filter((e) => e.target === integration.id)
        .map((e) => e.action)
        .reverse(),
      ["integration.installed", "integration.enabled", "integration.disabled", "integration.uninstalled"],
    );

    // Deleting a server takes its integrations along, generated files included.
    const leftover = await install("heisenbridge", undefined, server.id);
    await admin.patch(`/api/admin/servers/${server.id}`, { action: "disable" });
    assert.equal((await admin.delete(`/api/admin/servers/${server.id}`)).status, 200);
    assert.equal(existsSync(leftover.integration.filesDir as string), false);
    assert.equal((await admin.get(`/api/admin/integrations/${leftover.integration.id}`)).status, 404);
  });

  it("reports missing and changed files, and answers the system-wide diagnostics record", async () => {
    portal.capabilities = { dockerSocket: true, dockerCli: true, dockerCompose: false };
    const server = await addServer(admin, hs);
    const telegram = await install("mautrix-telegram", undefined, server.id);
    const discord = await install("mautrix-discord", undefined, server.id);
    hs.registerAppservice(readFileSync(`${discord.integration.filesDir}/registration.yaml`, "utf8"));
    unlinkSync(`${telegram.integration.filesDir}/INSTALL.md`);
    const health = (await admin.patch(`/api/admin/integrations/${telegram.integration.id}`, { action: "health_check" })).body
      .health;
    assert.deepEqual(health.files.missing, ["INSTALL.md"]);
    assert.equal(health.files.present, false);
    assert.deepEqual(health.missingSecrets.sort(), ["api_hash", "api_id"]);

    const bot = await admin.post(`/api/admin/bots?serverId=${server.id}`, {
      templateId: "faq",
      displayName: "Helper",
      localpart: "helper",
    });
    await admin.patch(`/api/admin/bots/${bot.body.bot.id}`, { action: "activate" });

    const reply = await admin.get(`/api/admin/integrations/diagnostics?serverId=${server.id}`);
    assert.equal(reply.status, 200, reply.text);
    const diagnostics = reply.body.diagnostics;
    assert.deepEqual(Object.keys(diagnostics).sort(), [
      "appserviceRegistrationOk",
      "botHealth",
      "capabilityMode",
      "checkedAt",
      "dockerAvailable",
      "dockerComposeAvailable",
      "envVarsMissing",
      "envVarsPresent",
      "errors",
      "filesystemWritable",
      "homeserverConnectivity",
      "integrationHealth",
    ]);
    assert.equal(diagnostics.homeserverConnectivity, true);
    assert.equal(diagnostics.appserviceRegistrationOk, false, "telegram's registration is not loaded");
    assert.equal(diagnostics.filesystemWritable, true);
    assert.deepEqual(
      [diagnostics.dockerAvailable, diagnostics.dockerComposeAvailable, diagnostics.capabilityMode],
      [true, false, "guided"],
    );
    assert.ok(diagnostics.envVarsMissing.includes("MAUTRIX_TELEGRAM_NETWORK__API_ID"));
    assert.ok(diagnostics.envVarsPresent.includes("MAUTRIX_DISCORD_APPSERVICE__AS_TOKEN"));
    assert.equal(diagnostics.integrationHealth[telegram.integration.id].healthy, false);
    assert.equal(diagnostics.integrationHealth[discord.integration.id].appserviceRegistered, true);
    const botHealth = diagnostics.botHealth[bot.body.bot.id];
    assert.deepEqual([botHealth.matrixUserId, botHealth.hasAccessToken, botHealth.tokenValid], ["@helper:int.test", false, null]);
    assert.ok(diagnostics.errors.some((error: string) => error.includes("no access token")));
    assert.ok(diagnostics.errors.some((error: string) => error.includes("INSTALL.md")));
    assert.ok(Date.parse(diagnostics.checkedAt) > 0);
    assert.equal((await admin.get("/api/admin/integrations/diagnostics")).status, 400);
  });
});
