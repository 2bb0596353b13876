import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Kysely } from "kysely";
import { onPostgres, openTestDatabase } from "../../test/support/test-database.ts";
import { AuthRepository } from "../auth/auth.repository.ts";
import { BotsRepository } from "../bots/bots.repository.ts";
import { BrandingRepository } from "../branding/branding.repository.ts";
import { IntegrationsRepository } from "../integrations/integrations.repository.ts";
import { serverRow } from "../servers/server-row.fixture.ts";
import { ServersRepository } from "../servers/servers.repository.ts";
import type { Database } from "./schema.ts";

/**
 * Writes that read before they write, started together. On SQLite a transaction runs alone; on PostgreSQL (`npm run
 * test:postgres`) they run on several connections at once, as from several portal instances, and only their locks
 * or compare-and-set keep the outcome the same as one after the other.
 */
const NOW = "2026-11-27T10:00:00.000Z";
const TIMES = 8;
const together = <T>(work: (i: number) => Promise<T>) => Promise.all(Array.from({ length: TIMES }, (_, i) => work(i)));

const server = (id: string) => serverRow(id, NOW);

const profile = (id: string) => ({
  id,
  name: id,
  is_active: 0,
  is_draft: 1,
  version: 0,
  settings: "{}",
  published_settings: null,
  published_at: null,
  created_at: NOW,
  updated_at: NOW,
});

describe(`read-then-write under concurrency (${onPostgres ? "PostgreSQL" : "SQLite"})`, () => {
  let db: Kysely<Database>;
  before(async () => {
    db = await openTestDatabase();
  });
  after(() => db.destroy());

  it("servers: the first servers inserted together and defaults set together leave exactly one default", async () => {
    const servers = new ServersRepository(db);
    const inserted = await together((i) => servers.insertWithDefault(server(`s${i}`)));
    assert.equal(inserted.filter((row) => row.is_default === 1).length, 1);
    await together((i) => servers.setDefault(`s${i}`, NOW));
    const defaults = await db.selectFrom("servers").select("id").where("is_default", "=", 1).execute();
    assert.equal(defaults.length, 1);
  });

  it("branding: edits of different fields all land; publishes together leave one active profile", async () => {
    const branding = new BrandingRepository(db);
    await branding.insertProfile(profile("p1"));
    await branding.insertProfile(profile("p2"));
    await together((i) =>
      branding.updateProfileFrom("p1", (row) => ({ settings: JSON.stringify({ ...JSON.parse(row.settings), [`f${i}`]: i }) })),
    );
    const settings = JSON.parse((await branding.findProfile("p1"))?.settings ?? "{}");
    assert.deepEqual(Object.keys(settings).sort(), ["f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7"]);

    await together((i) => branding.publish(i % 2 ? "p1" : "p2", NOW));
    const active = await db.selectFrom("branding_profiles").select(["id", "version"]).where("is_active", "=", 1).execute();
    assert.equal(active.length, 1);
    const versions = await db.selectFrom("branding_profiles").select("version").execute();
    assert.equal(
      versions.reduce((sum, row) => sum + row.version, 0),
      TIMES,
      "every publish counted",
    );
  });

  it("branding: assets of one purpose replaced together leave one record, each replaced record returned once", async () => {
    const branding = new BrandingRepository(db);
    const outcomes = await together((i) =>
      branding.replaceAsset(
        {
          id: `a${i}`,
          profile_id: "p1",
          purpose: "logo",
          filename: "logo.png",
          mime_type: "image/png",
          size: 1,
          sha256: "00",
          storage_name: `file-${i}.png`,
          created_at: NOW,
        },
        Buffer.from([i]),
      ),
    );
    const replaced = outcomes.flatMap((outcome) => (outcome ? [outcome.replaced?.id ?? []].flat() : []));
    const left = await branding.listAssets(["p1"]);
    assert.equal(left.length, 1);
    assert.equal(replaced.length, TIMES - 1, "every record but the last was replaced by exactly one writer");
    assert.equal(new Set([...replaced, left[0]?.id]).size, TIMES);
    const deleted = await together(() => branding.deleteAsset("p1", left[0]?.id ?? ""));
    assert.equal(deleted.filter(Boolean).length, 1, "one deletion gets the row");
  });

  it("integrations: one first setting of a key, one winner per configuration version, one deletion", async () => {
    const repository = new IntegrationsRepository(db);
    const row = {
      id: "i1",
      server_id: "s0",
      catalog_id: "telegram",
      name: "Telegram",
      type: "bridge",
      deployment_mode: "guided",
      status: "installed",
      enabled: 0,
      config_version: 1,
      config: "{}",
      appservice_id: null,
      sender_localpart: null,
      as_token_hash: null,
      files: "[]",
      last_health: null,
      last_health_at: null,
      created_at: NOW,
      updated_at: NOW,
    };
    const snapshot = { integration_id: "i1", version: 1, config: "{}", reason: "install", actor: "a@x", created_at: NOW };
    await repository.insert(row, snapshot, []);
    const secret = (i: number) => ({
      id: `k${i}`,
      integration_id: "i1",
      key: "api_key",
      value_enc: `v1:${i}`,
      generated: 0,
      created_at: NOW,
      rotated_at: null,
    });
    const set = await together((i) => repository.upsertSecret(secret(i)));
    assert.equal(set.filter((result) => !result.rotated).length, 1, "one insert, the others rotate it");
    assert.equal((await repository.listSecrets("i1")).length, 1);

    const written = await together((i) =>
      repository.updateConfig(
        "i1",
        1,
        { config: `{"n":${i}}`, config_version: 2, updated_at: NOW },
        { ...snapshot, version: 2, config: `{"n":${i}}`, reason: "update" },
        [],
      ),
    );
    assert.equal(written.filter(Boolean).length, 1, "one change per version, the others told to compute again");
    assert.equal((await repository.listSnapshots("i1")).length, 2);
    const removed = await together(() => repository.deleteSecret("i1", "k0"));
    assert.ok(removed.filter(Boolean).length <= 1);
  });

  it("auth and bots: one administrator for one e-mail, one removal of a room assignment", async () => {
    const auth = new AuthRepository(db);
    const created = await together((i) =>
      auth.insertUserIfAbsent({
        id: `u${i}`,
        email: "admin@portal.test",
        name: "Admin",
        role: "global_admin",
        password_hash: "x",
        created_at: NOW,
        updated_at: NOW,
      }),
    );
    assert.equal(created.filter(Boolean).length, 1);

    const bots = new BotsRepository(db);
    const bot = {
      id: "b1",
      server_id: "s0",
      template_id: "welcome",
      display_name: "Bot",
      localpart: "bot",
      avatar_url: null,
      config: "{}",
      status: "inactive",
      enabled: 0,
      access_token_enc: null,
      token_set_at: null,
      token_verified_at: null,
      profile_synced_at: null,
      created_at: NOW,
      updated_at: NOW,
    };
    await bots.insert(bot, []);
    await bots.insertRoom({ id: "r1", bot_id: "b1", room_id: "!a:x", room_alias: null, config: "{}", created_at: NOW });
    const removed = await together(() => bots.removeRoom("b1", "r1"));
    assert.equal(removed.filter(Boolean).length, 1);
  });
});
