import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parse } from "yaml";
import type { HomeserverSimulator } from "../../simulators/homeserver/index.ts";
import { allResponses } from "./support/portal-client.ts";
import {
  addServer,
  FULL_DOCKER,
  removeDataDir,
  startSimulator,
  startTestPortal,
  storedBytes,
  type TestPortal,
} from "./support/portal-harness.ts";
import { onPostgres } from "./support/test-database.ts";

interface FileInfo {
  name: string;
  path: string;
  containsSecrets: boolean;
  content: string;
}

/**
 * Bot tokens and integration secrets (generated and admin-set) never appear in clear in any API response, log line,
 * the SQLite files (database, WAL, shared memory), or any generated file not marked as holding secrets. Files that
 * must hold them (the appservice registration, which the homeserver reads, secrets.env, key files, configuration
 * files of software without another way to receive a secret) are 0600 and shown redacted by the API.
 */
describe("bot and integration secrets at rest", () => {
  let portal: TestPortal;
  let hs: HomeserverSimulator;
  before(async () => {
    [portal, hs] = await Promise.all([
      startTestPortal({ capabilities: FULL_DOCKER }),
      startSimulator({ serverName: "vault.test" }),
    ]);
  });
  after(async () => {
    await portal.stop();
    await hs.close();
    removeDataDir(portal.dataDir);
  });

  it("keeps every secret out of responses, logs, the database and non-secret files", async () => {
    const admin = await portal.admin();
    const server = await addServer(admin, hs);
    const secrets: string[] = [];

    // Bots: one verified token, one refused (never stored), one stored unverified on an unreachable server.
    const account = hs.createUser("vaultbot");
    const bot = (
      await admin.post(`/api/admin/bots?serverId=${server.id}`, {
        templateId: "welcome",
        displayName: "Vault",
        localpart: "vaultbot",
      })
    ).body.bot;
    assert.equal(
      (await admin.patch(`/api/admin/bots/${bot.id}`, { action: "set_token", accessToken: account.accessToken })).status,
      200,
    );
    await admin.patch(`/api/admin/bots/${bot.id}`, { action: "set_token", accessToken: "syt_refused_token_value_987654" });
    await admin.get(`/api/admin/bots/${bot.id}`);
    await admin.get(`/api/admin/bots?serverId=${server.id}`);
    secrets.push(account.accessToken, "syt_refused_token_value_987654");

    // Integrations with generated secrets (appservice tokens, keys, an RSA key) and admin-set ones.
    const install = async (catalogId: string, config?: Record<string, unknown>) => {
      const reply = await admin.post(`/api/admin/integrations?serverId=${server.id}`, {
        catalogId,
        ...(config ? { config } : {}),
      });
      assert.equal(reply.status, 201, reply.text);
      return reply.body.integration as { id: string; filesDir: string; files: FileInfo[] };
    };
    const telegram = await install("mautrix-telegram", { doublePuppet: true });
    const hookshot = await install("hookshot");
    const draupnir = await install("draupnir");
    const s3 = await install("synapse-s3-storage-provider");
    const maubot = await install("maubot");
    const set = async (integration: { id: string }, key: string, value: string) => {
      const reply = await admin.post(`/api/admin/integrations/${integration.id}/secrets`, { key, value });
      assert.ok(reply.status === 201 || reply.status === 200, reply.text);
      secrets.push(value);
    };
    await set(telegram, "api_id", "74829163");
    await set(telegram, "api_hash", "a1b2c3d4e5f60718293a4b5c6d7e8f90");
    await set(draupnir, "access_token", "syt_ZHJhdXBuaXI_draupnir_secret_token_42");
    await set(s3, "access_key_id", "AKIAVAULTTEST0000001");
    await set(s3, "secret_access_key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYVAULTKEY");
    await set(maubot, "admin_password", "maubot-admin-password-Zq9");
    await set(telegram, "api_hash", "0f9e8d7c6b5a49382716aabbccddeeff");
    await admin.put(`/api/admin/integrations/${telegram.id}`, { config: { port: 29999 } });

    // Generated secrets are only on disk: read them from the files meant to hold them.
    const registration = parse(readFileSync(join(telegram.filesDir, "registration.yaml"), "utf8"));
    const doublePuppet = parse(readFileSync(join(telegram.filesDir, "doublepuppet-registration.yaml"), "utf8"));
    const env = readFileSync(join(telegram.filesDir, "secrets.env"), "utf8");
    const envValue = (name: string) => new RegExp(`${name}='([^']+)'`).exec(env)?.[1] as string;
    secrets.push(
      registration.as_token,
      registration.hs_token,
      doublePuppet.as_token,
      doublePuppet.hs_token,
      envValue("MAUTRIX_TELEGRAM_PROVISIONING__SHARED_SECRET"),
      envValue("MAUTRIX_TELEGRAM_ENCRYPTION__PICKLE_KEY"),
      parse(readFileSync(join(hookshot.filesDir, "registration.yml"), "utf8")).as_token,
      parse(readFileSync(join(maubot.filesDir, "config.yaml"), "utf8")).server.unshared_secret,
    );
    const passkey = readFileSync(join(hookshot.filesDir, "passkey.pem"), "utf8");
    assert.match(passkey, /^-----BEGIN PRIVATE KEY-----\n/, "hookshot's generated RSA key");
    assert.equal(hookshot.files.find((file) => file.name === "passkey.pem")?.content.trim(), "<secret:passkey>");
    assert.equal(parse(readFileSync(join(hookshot.filesDir, "registration.yml"), "utf8")).sender_localpart, "hookshot");
    const passkeyBody = passkey.split("\n")[5] as string; // a line from the middle of the key
    secrets.push(passkeyBody);
    for (const secret of secrets) assert.ok(typeof secret === "string" && secret.length >= 8, `secret collected: ${secret}`);

    // Read everything back through the API, including details, secret lists, health and diagnostics.
    for (const integration of [telegram, hookshot, draupnir, s3, maubot]) {
      await admin.get(`/api/admin/integrations/${integration.id}`);
      await admin.get(`/api/admin/integrations/${integration.id}/secrets`);
      await admin.patch(`/api/admin/integrations/${integration.id}`, { action: "health_check" });
    }
    await admin.get(`/api/admin/integrations?serverId=${server.id}`);
    await admin.get(`/api/admin/integrations/diagnostics?serverId=${server.id}`);
    await admin.get("/api/admin/audit?limit=200");

    const responses = allResponses.join("\n");
    assert.ok(responses.includes("<secret:as_token>"), "secret files are shown redacted");
    for (const secret of secrets) assert.equal(responses.includes(secret), false, `a response contains ${secret.slice(0, 8)}…`);
    const logs = portal.logs().join("\n");
    assert.match(logs, /"msg":"homeserver call"/, "debug logging is on");
    for (const secret of secrets) assert.equal(logs.includes(secret), false, `a log line contains ${secret.slice(0, 8)}…`);

    const { bytes: db, files: dbFiles } = await storedBytes(portal.dataDir);
    if (!onPostgres)
      assert.ok(
        dbFiles.some((file) => file.endsWith("-wal")),
        "WAL mode",
      );
    assert.ok(db.includes("integration_secrets") && db.includes("v1:"), "the scan sees sealed values");
    for (const file of dbFiles) assert.equal(statSync(file).mode & 0o777, 0o600, `${file} must be 0600 like secret.key`);
    for (const secret of secrets) assert.equal(db.includes(secret), false, `the database holds ${secret.slice(0, 8)}… in clear`);

    // Generated files: secrets only where they must be, and there 0600.
    const root = join(portal.dataDir, "integrations");
    let secretFiles = 0;
    for (const integration of [telegram, hookshot, draupnir, s3, maubot]) {
      const detail = (await admin.get(`/api/admin/integrations/${integration.id}`)).body.integration as { files: FileInfo[] };
      const onDisk = readdirSync(join(root, integration.id)).filter((name) => !name.startsWith("."));
      assert.deepEqual(onDisk.sort(), detail.files.map((file) => file.name).sort(), "only manifest files on disk");
      for (const file of detail.files) {
        const text = readFileSync(file.path, "utf8");
        const mode = statSync(file.path).mode & 0o777;
        if (file.containsSecrets) {
          secretFiles++;
          assert.equal(mode, 0o600, `${file.path} must be 0600`);
        } else {
          assert.equal(mode, 0o644, file.path);
          for (const secret of secrets) assert.equal(text.includes(secret), false, `${file.name} holds ${secret.slice(0, 8)}…`);
        }
      }
    }
    assert.ok(secretFiles >= 8);
    // The registration must carry the tokens (the homeserver reads them there), and it is private.
    const registrationPath = join(telegram.filesDir, "registration.yaml");
    assert.ok(readFileSync(registrationPath, "utf8").includes(registration.as_token));
    assert.equal(statSync(registrationPath).mode & 0o777, 0o600);
    assert.ok(env.includes("a1b2c3d4e5f60718293a4b5c6d7e8f90") === false, "the rotated api_hash replaced the old value");
  });
});
