import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import type { WebSocket } from "ws";
import { eventually } from "../../hub/test/support/test-context.ts";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome, generateHome } from "../../simulators/home-assistant/index.ts";
import { LOOKS } from "./support/browser.ts";
import { startIngressProxy } from "./support/ingress-proxy.ts";
import { settled, unlabelledControls, waitUntil } from "./support/page-checks.ts";
import { ARTIFACTS, startUiWorld, type UiWorld } from "./support/ui-world.ts";

interface BridgeRecord {
  id: string;
  name: string;
  status: string;
  commissioning: { manualPairingCode: string; qrPairingCode: string };
}

async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((hash) => {
    location.hash = hash;
  }, path);
  await settled(page);
}

describe("hub UI under the ingress path (demo home, real hub, headless Chromium)", { timeout: 90_000 }, () => {
  let world: UiWorld;
  let page: Page;
  let bridge: BridgeRecord;

  before(async () => {
    assertNetworkIsolated();
    world = await startUiWorld(createDemoHome());
    ({ page } = await world.newPage());
  });
  after(async () => {
    await world?.close();
  });

  it("loads under /api/hassio_ingress/test/ with relative URLs only and shows the empty state", async () => {
    await page.goto(world.proxy.url);
    await settled(page);
    assert.equal(await page.locator("h1").textContent(), "Dashboard");
    assert.equal(await page.getAttribute("base", "href"), `${world.proxy.prefix}/`);
    await page.getByTestId("ha-connection").filter({ hasText: "Connected" }).waitFor();
    await page.getByText("No bridges yet").first().waitFor();
    assert.equal(await page.getByTestId("demo-badge").count(), 0, "not in demo mode: no badge");
    assert.deepEqual(world.strayRequests, []);
  });

  it("creates a bridge with include and exclude rules, with a live preview of the matching entities", async () => {
    await page.getByRole("link", { name: "Create a bridge" }).first().click();
    await settled(page);
    await page.getByLabel("Name", { exact: true }).fill("Lights");
    const filter = {
      include: [{ type: "domain", value: "light" }],
      exclude: [{ type: "pattern", value: "light.bathroom_*" }],
      includeHidden: false,
    };
    const expected = await world.api<{ total: number }>("POST", "/api/matter/filter-preview", { filter });
    const all = await world.api<{ total: number }>("POST", "/api/matter/filter-preview", {
      filter: { include: [], exclude: [] },
    });

    // No rule yet: the preview shows everything.
    await page
      .getByTestId("preview-count")
      .filter({ hasText: `${all.body.total} entities match` })
      .waitFor();
    const include = page.getByTestId("include-rules");
    await include.getByRole("button", { name: "Add rule" }).click();
    await include.getByLabel("Rule 1 value").selectOption("light");
    const exclude = page.getByTestId("exclude-rules");
    await exclude.getByRole("button", { name: "Add rule" }).click();
    await exclude.getByLabel("Rule 1 type").selectOption("pattern");
    await exclude.getByLabel("Rule 1 value").fill("light.bathroom_*");
    await page
      .getByTestId("preview-count")
      .filter({ hasText: `${expected.body.total} entities match` })
      .waitFor();
    assert.ok(expected.body.total > 3 && expected.body.total < all.body.total);
    const previewed = await page
      .getByTestId("filter-preview")
      .locator("[data-entity-id]")
      .evaluateAll((els) => els.map((el) => el.getAttribute("data-entity-id")));
    assert.ok(
      previewed.every((id) => id?.startsWith("light.") && !id.startsWith("light.bathroom_")),
      previewed.join(),
    );
    await page.screenshot({ path: join(ARTIFACTS, "bridge-form-filter-light-desktop.png") });

    await page.getByTestId("save-bridge").click();
    await page.locator("h1", { hasText: "Lights" }).waitFor();
    const list = await world.api<BridgeRecord[]>("GET", "/api/matter/bridges");
    assert.equal(list.body.length, 1);
    bridge = list.body[0]!;
    assert.deepEqual((await world.api<{ filter: unknown }>("GET", `/api/matter/bridges/${bridge.id}`)).body.filter, filter);
  });

  it("shows a scannable QR code and the manual pairing code with copy buttons", async () => {
    const pairing = page.getByTestId("pairing");
    const qr = pairing.locator("svg.qr").first();
    await qr.waitFor();
    assert.equal(await qr.getAttribute("data-qr"), bridge.commissioning.qrPairingCode);
    assert.match(bridge.commissioning.qrPairingCode, /^MT:/);
    assert.ok((await qr.locator("path").getAttribute("d"))!.length > 500, "the QR code has modules");
    const manual = (await page.getByTestId("manual-code").textContent())!.replace(/-/g, "");
    assert.equal(manual, bridge.commissioning.manualPairingCode);
    await pairing.getByRole("button", { name: "Copy manual code" }).waitFor();
    await pairing.getByRole("button", { name: "Copy QR code text" }).waitFor();
    await page.getByTestId("fabrics").getByText("No controller has paired this bridge yet.").waitFor();
  });

  it("updates a device's state live in the bridge's device list when Home Assistant changes it", async (t) => {
    await page.getByText("Running").first().waitFor({ timeout: 30_000 });
    const row = page.locator('[data-testid="device-row"][data-entity-id="light.kitchen_spots"]');
    await row.waitFor({ timeout: 15_000 });
    const before = (await row.getByTestId("device-state").textContent())!.trim();
    const next = before === "on" ? "off" : "on";
    const started = Date.now();
    world.sim.setState("light.kitchen_spots", next);
    await row
      .getByTestId("device-state")
      .filter({ hasText: new RegExp(`^${next}$`) })
      .waitFor({ timeout: 10_000 });
    const mode = await page.getByTestId("live-mode").getAttribute("data-mode");
    t.diagnostic(`state shown after ${Date.now() - started} ms; live channel: ${mode}`);
    // Pushed by the hub (subscribe_devices), not re-read by polling.
    assert.equal(await page.getByTestId("devices-live").getAttribute("data-live"), "yes");
    assert.match((await row.locator("td").nth(1).textContent()) ?? "", /light/i, "the Matter device type is shown");
    assert.equal(await row.locator(".pill-ok").textContent(), "Reachable");
  });

  it("edits an entity mapping inline (device type, name, disabled)", async () => {
    const row = page.locator('[data-testid="device-row"][data-entity-id="light.kitchen_spots"]');
    await row.getByRole("button", { name: "Edit mapping of light.kitchen_spots" }).click();
    const editor = page.getByTestId("mapping-editor");
    await editor.getByLabel("Matter device type").selectOption("on_off_light");
    await editor.getByLabel("Name in controllers").fill("Kitchen ceiling");
    await page.getByTestId("devices").screenshot({ path: join(ARTIFACTS, "bridge-devices-mapping-light-desktop.png") });
    await editor.getByRole("button", { name: "Save" }).click();
    await page.getByText("Mapping of light.kitchen_spots saved").waitFor();
    const { body } = await world.api<{ mappings: { entityId: string; customName: string; matterDeviceType: string }[] }>(
      "GET",
      `/api/entity-mappings/${bridge.id}`,
    );
    assert.deepEqual(
      body.mappings.map(({ entityId, customName, matterDeviceType }) => ({ entityId, customName, matterDeviceType })),
      [{ entityId: "light.kitchen_spots", customName: "Kitchen ceiling", matterDeviceType: "on_off_light" }],
    );
    await row.getByText("Kitchen ceiling").waitFor();
    await row.getByText("Custom").waitFor();
  });

  it("force-syncs a bridge and says what it corrected", async () => {
    await page.getByRole("button", { name: "Force sync" }).first().click();
    await page
      .getByText(/^All \d+ devices were in sync with Home Assistant$/)
      .first()
      .waitFor();
  });

  it("clones a bridge, reorders the start priorities, and deletes after confirmation", async () => {
    await go(page, `/bridges/${bridge.id}`);
    await page.getByRole("button", { name: "More actions" }).click();
    await page.getByRole("button", { name: "Clone" }).click();
    await page.locator("h1", { hasText: "Lights (copy)" }).waitFor();
    const copyId = page.url().split("/bridges/")[1]!;
    assert.notEqual(copyId, bridge.id);

    await go(page, "/bridges");
    await page.getByTestId("bridge-row").nth(1).waitFor();
    const names = () => page.getByTestId("bridge-row").locator(".bridge-name").allTextContents();
    const before = await names();
    await page.getByRole("button", { name: `Move ${before[1]} up (starts earlier)` }).click();
    await page.getByText("Start order saved").first().waitFor();
    assert.deepEqual(await names(), [before[1], before[0]]);
    const stored = (await world.api<{ name: string; priority: number }[]>("GET", "/api/matter/bridges")).body;
    assert.deepEqual(
      stored.map((b) => b.name),
      [before[1], before[0]],
    );
    assert.ok(stored[0]!.priority < stored[1]!.priority);

    await go(page, `/bridges/${copyId}`);
    await page.getByRole("button", { name: "More actions" }).click();
    await page.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Delete “Lights (copy)”?").waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    assert.equal((await world.api("GET", `/api/matter/bridges/${copyId}`)).status, 200, "cancel keeps it");
    await page.getByRole("button", { name: "More actions" }).click();
    await page.getByRole("button", { name: "Delete" }).click();
    await dialog.getByRole("button", { name: "Delete" }).click();
    await page.locator("h1", { hasText: "Bridges" }).waitFor();
    assert.equal((await world.api("GET", `/api/matter/bridges/${copyId}`)).status, 404);
    await page.getByTestId("bridge-row").first().waitFor();
    assert.equal(await page.getByTestId("bridge-row").count(), 1);
  });

  it("tails the hub's log live over SSE", async () => {
    await go(page, "/logs");
    await page.getByTestId("log-list").or(page.getByText("No log lines match.")).first().waitFor();
    const marker = `ui-test marker ${Date.now()}`;
    // Give the EventSource a moment to connect before the line is written.
    await page.waitForTimeout(300);
    world.hub.ctx.logs.append({ time: new Date().toISOString(), level: "warn", msg: marker, component: "ui-test" });
    await page.getByTestId("log-line").filter({ hasText: marker }).waitFor({ timeout: 5000 });
  });

  it("downloads a backup", async () => {
    await go(page, "/backup");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-backup").click()]);
    const path = await download.path();
    const bytes = readFileSync(path);
    assert.equal(bytes.subarray(0, 2).toString(), "PK", "a ZIP file");
  });

  it("shows the DEMO badge in demo mode and every failed request", async () => {
    const { page: demo } = await world.newPage();
    await demo.route("**/api/health", async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), demo: true } });
    });
    await demo.route("**/api/home-assistant/stats", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: "Boom from the test" }) }),
    );
    await demo.goto(world.proxy.url);
    await demo.getByTestId("demo-badge").waitFor();
    await demo.getByRole("alert").filter({ hasText: "Boom from the test" }).waitFor();
    await demo.close();
  });

  it("speaks the live channel protocol: snapshot, one-bridge updates, ping/pong, diagnostics (spec fake of /api/ws)", async () => {
    // The hub's /api/ws is being built in parallel; this proxy answers the upgrade itself, exactly as the spec says.
    const received: { type?: string }[] = [];
    let server: WebSocket | undefined;
    const real = (await world.api<BridgeRecord[]>("GET", "/api/matter/bridges")).body;
    const fake = await startIngressProxy(world.httpPort, "fake", {
      fakeWebSocket: (ws) => {
        server = ws;
        ws.on("message", (data) => received.push(JSON.parse(String(data)) as { type?: string }));
        ws.send(JSON.stringify({ type: "bridges_update", data: real.map((b) => ({ ...b, name: `Pushed ${b.name}` })) }));
        ws.send(JSON.stringify({ type: "ping" }));
      },
    });
    try {
      const { page: livePage } = await world.newPage();
      await livePage.goto(fake.url);
      await livePage.locator('[data-testid="live-mode"][data-mode="live"]').waitFor();
      await livePage.getByText("Pushed Lights").first().waitFor();
      await waitUntil(() => received.some((m) => m.type === "pong"), "the UI answers the server's ping");
      server!.send(
        JSON.stringify({
          type: "bridge_update",
          bridgeId: real[0]!.id,
          data: { ...real[0], name: "Pushed Lights", status: "failed", statusReason: "port taken (test)" },
        }),
      );
      await livePage.getByRole("alert").filter({ hasText: "port taken (test)" }).waitFor();
      const paired = {
        ...real[0],
        name: "Pushed Lights",
        commissioning: {
          ...real[0]!.commissioning,
          commissioned: true,
          fabrics: [
            { fabricIndex: 1, vendorId: 0x1349, label: "" },
            { fabricIndex: 2, vendorId: 0x6006, label: "Home" },
            { fabricIndex: 3, vendorId: 0xfff1, label: "chip-tool" },
          ],
        },
      };
      server!.send(JSON.stringify({ type: "bridge_update", bridgeId: real[0]!.id, data: paired }));
      await livePage.route("**/actions/open-commissioning-window", (route) =>
        route.fulfill({
          json: {
            commissioningWindow: {
              manualPairingCode: "34970112332",
              qrPairingCode: "MT:Y.K908WI00KA0648G00",
              timeoutSeconds: 900,
            },
            bridge: paired,
          },
        }),
      );
      await go(livePage, `/bridges/${real[0]!.id}`);
      const fabrics = livePage.getByTestId("fabrics");
      await fabrics.getByText("Apple Home").waitFor();
      await fabrics.getByText("Google Home").waitFor();
      await fabrics.getByText("Test vendor").waitFor();
      await fabrics.getByRole("button", { name: "Pair another controller" }).click();
      const window = livePage.getByTestId("commissioning-window");
      await window.getByText("3497-011-2332").waitFor();
      assert.equal(await window.locator("svg.qr").getAttribute("data-qr"), "MT:Y.K908WI00KA0648G00");
      await fabrics.screenshot({ path: join(ARTIFACTS, "bridge-fabrics-window-light-desktop.png") });
      await go(livePage, "/health");
      await waitUntil(() => received.some((m) => m.type === "subscribe_diagnostics"), "the Health page subscribes");
      server!.send(JSON.stringify({ type: "diagnostic_snapshot", data: { note: "snapshot from the test" } }));
      server!.send(JSON.stringify({ type: "diagnostic_event", data: { event: "state pushed", entityId: "light.hallway" } }));
      await livePage.getByTestId("diagnostics").getByText("snapshot from the test").waitFor();
      await livePage.getByTestId("diagnostics").getByText("state pushed").waitFor();
      await go(livePage, "/");
      await waitUntil(() => received.some((m) => m.type === "unsubscribe_diagnostics"), "leaving Health unsubscribes");
    } finally {
      await fake.close();
    }
  });

  it("sets, disables and clears a lock PIN (hashed by the hub, never shown again)", async () => {
    const locks = (
      await world.api<{ entities: { entity_id: string; name: string }[] }>("GET", "/api/home-assistant/entities?domain=lock")
    ).body.entities;
    const lock = locks[0]!;
    const name = lock.name;
    await go(page, "/locks");
    const card = page.getByTestId("lock-card").filter({ hasText: name }).first();
    await card.getByText("No PIN").waitFor();
    const pinField = card.getByLabel(`New PIN for ${name}`);
    await pinField.fill("12");
    await pinField.blur();
    await card.getByText("Use 4 to 8 digits").waitFor();
    assert.equal((await world.api("GET", `/api/lock-credentials/${lock.entity_id}`)).status, 404, "nothing saved");

    await pinField.fill("482913");
    await card.getByRole("button", { name: "Set PIN" }).click();
    await page.getByText(`PIN of ${name} saved`).first().waitFor();
    await card.getByText("PIN set").waitFor();
    assert.equal(await pinField.inputValue(), "", "the PIN is not kept in the form");
    const saved = await world.api<Record<string, unknown>>("GET", `/api/lock-credentials/${lock.entity_id}`);
    assert.equal(saved.body.enabled, true);
    assert.ok(!JSON.stringify(saved.body).includes("482913"), "the API never returns the PIN");

    await card.getByLabel(`Require the PIN for ${name}`).uncheck();
    await eventually(
      async () =>
        (await world.api<{ enabled: boolean }>("GET", `/api/lock-credentials/${lock.entity_id}`)).body.enabled === false,
    );
    await page.screenshot({ path: join(ARTIFACTS, "locks-pin-light-desktop.png") });

    await card.getByRole("button", { name: "Clear PIN" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Clear PIN" }).click();
    await page.getByText(`PIN of ${name} cleared`).first().waitFor();
    await card.getByText("No PIN").waitFor();
    assert.equal((await world.api("GET", `/api/lock-credentials/${lock.entity_id}`)).status, 404);
  });

  it("previews a restore of a downloaded backup before anything changes", async () => {
    await go(page, "/backup");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-backup").click()]);
    const zip = readFileSync(await download.path());
    const before = (await world.api<{ id: string }[]>("GET", "/api/matter/bridges")).body;

    await page.getByLabel("Backup file").setInputFiles({ name: "backup.zip", mimeType: "application/zip", buffer: zip });
    const preview = page.getByTestId("restore-preview");
    await preview.getByText("Lights").first().waitFor();
    await preview.getByText("replaced").first().waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "backup-preview-light-desktop.png") });

    await page.getByLabel("Backup file").setInputFiles({
      name: "broken.zip",
      mimeType: "application/zip",
      buffer: Buffer.from("PK this is not a zip"),
    });
    await page
      .getByRole("alert")
      .filter({ hasText: /invalid backup/i })
      .first()
      .waitFor();
    assert.deepEqual((await world.api<{ id: string }[]>("GET", "/api/matter/bridges")).body, before, "nothing changed");
  });

  it("saves screenshots of every main page, light and dark, desktop and phone", async () => {
    const logs = world.hub.ctx.logs;
    const now = () => new Date().toISOString();
    logs.append({ time: now(), level: "info", msg: `bridge "Lights" started on port 5540`, component: "bridges" });
    logs.append({
      time: now(),
      level: "error",
      msg: "service call failed",
      component: "home-assistant",
      entityId: "light.hallway",
    });
    logs.append({ time: now(), level: "debug", msg: "state pushed", component: "matter" });
    const pages: [string, string][] = [
      ["dashboard", "/"],
      ["bridges", "/bridges"],
      ["bridge-detail", `/bridges/${bridge.id}`],
      ["bridge-edit", `/bridges/${bridge.id}/edit`],
      ["entities", "/entities"],
      ["locks", "/locks"],
      ["backup", "/backup"],
      ["logs", "/logs"],
      ["settings", "/settings"],
      ["health", "/health"],
    ];
    // The four variants run side by side: each has its own browser context.
    await Promise.all(
      LOOKS.map(async ({ colorScheme, phone, suffix }) => {
        const { page: shot, context } = await world.newPage({ colorScheme, phone });
        await shot.goto(world.proxy.url);
        await settled(shot);
        for (const [name, path] of pages) {
          await go(shot, path);
          if (name === "bridge-edit") await shot.getByTestId("preview-count").waitFor();
          if (name === "bridge-detail") {
            await shot.getByTestId("device-row").first().waitFor();
            await shot.getByTestId("devices").screenshot({ path: join(ARTIFACTS, `bridge-devices-${suffix}.png`) });
          }
          if (colorScheme === "light" && !phone) assert.deepEqual(await unlabelledControls(shot), [], `labels on ${name}`);
          await shot.screenshot({ path: join(ARTIFACTS, `${name}-${suffix}.png`) });
        }
        await context.close();
      }),
    );
    assert.deepEqual(world.strayRequests, [], "every request stayed under the ingress prefix");
  });
});

describe("hub UI with 5,000 entities", { timeout: 60_000 }, () => {
  let world: UiWorld;

  before(async () => {
    assertNetworkIsolated();
    world = await startUiWorld(generateHome(5000));
  });
  after(async () => {
    await world?.close();
  });

  it("pages the entity browser and previews a filter over the whole home quickly", async (t) => {
    const { page } = await world.newPage();
    await page.goto(`${world.proxy.url}#/entities`);
    await settled(page);
    await page.getByTestId("entity-total").filter({ hasText: "5000 entities" }).waitFor();
    assert.equal(await page.getByTestId("entities-table").locator("tbody tr").count(), 100);
    let started = Date.now();
    await page.getByRole("button", { name: "Next" }).first().click();
    await page.getByText("101–200 of 5000").first().waitFor();
    t.diagnostic(`next page in ${Date.now() - started} ms`);
    await page.getByLabel("Search").first().fill("l1234");
    await page.getByTestId("entity-total").filter({ hasNotText: "5000" }).waitFor();

    await go(page, "/bridges/new");
    started = Date.now();
    await page.getByTestId("preview-count").filter({ hasText: "5000 entities match" }).waitFor();
    t.diagnostic(`preview of 5000 entities in ${Date.now() - started} ms`);
    assert.ok((await page.getByTestId("filter-preview").locator("[data-entity-id]").count()) <= 100);
    await page.screenshot({ path: join(ARTIFACTS, "bridge-form-5000-desktop.png") });
  });
});
