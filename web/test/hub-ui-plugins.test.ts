import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Locator, Page } from "playwright-core";
import { SimulatedCloud } from "../../hub/src/plugins/builtin/appliance-cloud/simulated-cloud.ts";
import { VeSyncClient } from "../../hub/src/plugins/builtin/appliance-cloud/vesync-client.ts";
import type { SlotInfo } from "../../hub/src/plugins/managed-slot.ts";
import { ACCOUNT, EMAIL, PASSWORD } from "../../hub/src/plugins/testing/appliance-harness.ts";
import { EXAMPLE_PLUGIN_DIR, offlineNpmEnv, packPlugin } from "../../hub/src/plugins/testing/plugin-fixtures.ts";
import { freeUdpPort } from "../../hub/test/support/matter-fixtures.ts";
import { eventually } from "../../hub/test/support/test-context.ts";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome } from "../../simulators/home-assistant/index.ts";
import { LOOKS } from "./support/browser.ts";
import { settled, unlabelledControls } from "./support/page-checks.ts";
import { ARTIFACTS, startUiWorld, type UiWorld } from "./support/ui-world.ts";

const EXAMPLE = "hub-plugin-example";

interface PluginsList {
  packages: { name: string; version: string; source: { type: string; file?: string } }[];
  bridges: { bridgeId: string; note: string | null; plugins: SlotInfo[] }[];
}

interface BridgeRecord {
  id: string;
  name: string;
  status: string;
}

describe("hub UI: the plugins page (real hub, real npm install, simulated cloud, headless Chromium)", {
  timeout: 240_000,
}, () => {
  let world: UiWorld;
  let page: Page;
  let work: string;
  let cloud: SimulatedCloud;
  let bridge: BridgeRecord;
  let serverBridge: BridgeRecord;
  let archive: Buffer;

  const list = async () => (await world.api<PluginsList>("GET", "/api/plugins")).body;
  const pluginOn = async (name: string, bridgeId = bridge.id) =>
    (await list()).bridges.find((b) => b.bridgeId === bridgeId)?.plugins.find((p) => p.name === name);
  const card = (bridgeId = bridge.id) => page.locator(`[data-testid="plugin-bridge"][data-bridge-id="${bridgeId}"]`);
  const row = (name: string, bridgeId = bridge.id) => card(bridgeId).locator(`[data-testid="plugin-row"][data-plugin="${name}"]`);
  const inState = (name: string, state: string) =>
    card().locator(`[data-testid="plugin-row"][data-plugin="${name}"][data-state="${state}"]`).waitFor({ timeout: 20_000 });
  /** The built-ins go by their display names in the UI, by their ids in the API. */
  const shown = (name: string) =>
    ({ security: "Security", "appliance-cloud": "Appliance cloud", camera: "Camera" })[name] ?? name;
  const openSettings = async (name: string): Promise<Locator> => {
    await page.getByRole("button", { name: `Settings of ${shown(name)} on ${bridge.name}` }).click();
    const dialog = page.getByTestId("plugin-settings");
    await dialog.waitFor();
    await dialog.locator(".schema-form").waitFor();
    return dialog;
  };
  const createBridge = async (input: Record<string, unknown>) => {
    // Not /api/matter/next-port: that is 5540 upwards, and another test file running at the same time may take the
    // same port between its probe and the bridge's start.
    const created = await world.api<BridgeRecord>("POST", "/api/matter/bridges", { port: await freeUdpPort(), ...input });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body;
  };

  before(async () => {
    assertNetworkIsolated();
    work = await mkdtemp(join(tmpdir(), "hub-ui-plugins-"));
    cloud = new SimulatedCloud({ email: EMAIL, password: PASSWORD, devices: ACCOUNT });
    // The example plugin packed as a user would (npm pack), with its own npm cache: nothing reaches a registry.
    archive = await readFile(await packPlugin(EXAMPLE_PLUGIN_DIR, join(work, "packed"), join(work, "pack-cache")));
    world = await startUiWorld(createDemoHome(), {
      plugins: {
        lifecycleTimeoutMs: 5000,
        retryDelayMs: 200,
        npm: { env: offlineNpmEnv(join(work, "npm-cache")) },
        cloudClient: () => new VeSyncClient({ fetch: cloud.fetch }),
      },
    });
    bridge = await createBridge({
      name: "Garden",
      filter: { include: [{ type: "entity_id", value: "switch.garden_pump" }], exclude: [] },
    });
    serverBridge = await createBridge({
      name: "Pump alone",
      serverMode: true,
      autoStart: false,
      filter: { include: [{ type: "entity_id", value: "switch.garden_pump" }], exclude: [] },
    });
    await eventually(
      async () => (await world.api<BridgeRecord>("GET", `/api/matter/bridges/${bridge.id}`)).body.status === "running",
      30_000,
    );
    ({ page } = await world.newPage());
    await page.goto(`${world.proxy.url}#/plugins`);
    await settled(page);
  });
  after(async () => {
    await world?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("shows the empty state, the built-in plugins on each bridge, and the Server Mode note", async () => {
    assert.equal(await page.locator("h1").textContent(), "Plugins");
    assert.equal(await page.getByRole("link", { name: "Plugins" }).getAttribute("aria-current"), "page");
    await page.getByTestId("plugin-packages").getByText("No plugins installed").waitFor();
    assert.deepEqual(await page.getByTestId("builtin-plugin").locator("strong").allTextContents(), [
      "Camera",
      "Security",
      "Appliance cloud",
    ]);
    // Running, but waiting for its settings: the badge says so rather than "Running".
    await inState("security", "running");
    await row("security").getByText("not configured: no devices until the settings are saved").waitFor();
    assert.equal(await row("security").getByTestId("plugin-state").textContent(), "Needs settings");
    await inState("appliance-cloud", "running");
    assert.equal(await row("appliance-cloud").getByTestId("plugin-state").textContent(), "Needs settings");

    const note = (await list()).bridges.find((b) => b.bridgeId === serverBridge.id)?.note;
    assert.ok(note, "the API gives Server Mode bridges a note");
    await card(serverBridge.id).getByTestId("server-mode-note").filter({ hasText: note }).waitFor();
    assert.equal(
      await card(serverBridge.id).getByRole("button").count(),
      0,
      "a Server Mode bridge offers no plugin actions (the hub answers 409)",
    );
    assert.deepEqual(world.strayRequests, []);
  });

  it("shows every failed request: a refused archive in place, a failed list load with a retry", async () => {
    const install = page.getByTestId("plugin-install");
    await install.getByRole("tab", { name: "Upload .tgz" }).click();
    await install.getByRole("button", { name: "Upload and install" }).click();
    await install.getByText("Choose a .tgz file").waitFor();
    await install.getByLabel("Plugin archive (.tgz)").setInputFiles({
      name: "broken.tgz",
      mimeType: "application/gzip",
      buffer: Buffer.from("this is not a gzip archive"),
    });
    await install.getByRole("button", { name: "Upload and install" }).click();
    const refusal = install.getByRole("alert");
    await refusal.waitFor({ timeout: 20_000 });
    assert.match((await refusal.textContent()) ?? "", /^Installation failed: .+/);
    assert.deepEqual((await list()).packages, [], "nothing installed");

    const { page: failing } = await world.newPage();
    let fail = true;
    await failing.route("**/api/plugins", (route) =>
      fail
        ? route.fulfill({
            status: 500,
            contentType: "application/json",
            body: JSON.stringify({ error: "Plugins exploded (test)" }),
          })
        : route.continue(),
    );
    await failing.goto(`${world.proxy.url}#/plugins`);
    const alert = failing.getByRole("alert").filter({ hasText: "Plugins exploded (test)" });
    await alert.waitFor();
    fail = false;
    await alert.getByRole("button", { name: "Retry" }).click();
    await failing.getByTestId("plugin-packages").waitFor();
    await failing.close();
  });

  it("uploads the example plugin's .tgz, enables it on a bridge and lists its devices", async () => {
    const install = page.getByTestId("plugin-install");
    await install.getByLabel("Plugin archive (.tgz)").setInputFiles({
      name: "hub-plugin-example-1.0.0.tgz",
      mimeType: "application/gzip",
      buffer: archive,
    });
    await install.getByRole("button", { name: "Upload and install" }).click();
    await page.getByText(`Installed ${EXAMPLE} 1.0.0. Enable it on a bridge below.`).waitFor({ timeout: 60_000 });
    const pkg = page.locator(`[data-testid="package-row"][data-package="${EXAMPLE}"]`);
    await pkg.getByText("Uploaded: ").waitFor();
    await pkg.getByText("Installed", { exact: true }).waitFor();
    assert.deepEqual(
      (await list()).packages.map((p) => [p.name, p.version, p.source.type]),
      [[EXAMPLE, "1.0.0", "upload"]],
    );

    // A new package starts disabled on every bridge.
    await inState(EXAMPLE, "disabled");
    await page.getByRole("button", { name: `Enable ${EXAMPLE} on Garden` }).click();
    // The hub pushes no plugin changes: the page polls while the plugin starts, and shows it running.
    await inState(EXAMPLE, "running");
    const devices = row(EXAMPLE).getByTestId("plugin-device");
    await devices.nth(2).waitFor();
    assert.deepEqual(await devices.locator(".device-name").allTextContents(), [
      "Example switch",
      "Example fan",
      "Example temperature",
    ]);
    await row(EXAMPLE).getByText("On/off plug").waitFor();
    const info = await pluginOn(EXAMPLE);
    assert.equal(info?.enabled, true);
    assert.ok(info?.devices.every((d) => d.endpointNumber !== null && d.reachable));
    for (const device of info?.devices ?? []) {
      await row(EXAMPLE).getByText(`Endpoint ${device.endpointNumber}`).waitFor();
    }
  });

  it("stops polling once nothing is in progress", async () => {
    let reads = 0;
    const count = (request: { url(): string; method(): string }) => {
      if (request.method() === "GET" && /\/api\/plugins$/.test(request.url())) reads++;
    };
    page.on("request", count);
    await page.waitForTimeout(3500);
    page.off("request", count);
    assert.equal(reads, 0, "no list reads while every plugin is settled");
  });

  it("security: the settings form from the schema saves, applies, and shows the plugin's warnings", async () => {
    const dialog = await openSettings("security");
    await dialog.getByRole("heading", { name: "Security (experimental local alarm)" }).waitFor();
    const exitDelay = dialog.getByLabel("Exit delay (s), 0 disables");
    assert.equal(await exitDelay.inputValue(), "", "nothing saved yet: the default is a placeholder");
    assert.equal(await exitDelay.getAttribute("placeholder"), "60");

    // A value the schema refuses is caught before anything is sent.
    await exitDelay.fill("-5");
    await dialog.getByRole("button", { name: "Save settings" }).click();
    await dialog.getByText("At least 0", { exact: true }).waitFor();
    assert.equal((await pluginOn("security"))?.config, null, "nothing saved");

    await exitDelay.fill("5");
    await dialog.getByLabel("away triggers").fill("binary_sensor.hallway_motion");
    await dialog.getByLabel("away alerts").fill("light.hallway, lock.front_door");
    const token = dialog.getByLabel("Home Assistant token (optional)", { exact: true });
    assert.equal(await token.getAttribute("type"), "password");
    await token.fill("secret-token-from-the-ui");
    await dialog.getByRole("button", { name: "Save settings" }).click();
    await dialog.getByText("Saved and applied.").waitFor();

    const info = await pluginOn("security");
    assert.equal(info?.config?.exitDelaySeconds, 5);
    assert.equal(info?.config?.awayAlerts, "light.hallway, lock.front_door");
    assert.deepEqual(info?.secretsSet, ["haToken"]);
    assert.ok(!JSON.stringify(await list()).includes("secret-token-from-the-ui"), "the token never comes back");
    assert.equal(info?.devices.length, 5, "four mode switches and the Alarm sensor");

    // The password field is empty again and says a value is stored; the plugin's warnings are shown.
    assert.equal(await token.inputValue(), "");
    await dialog.getByText("Stored. Leave empty to keep it; it is never shown.").waitFor();
    const warnings = dialog.getByTestId("plugin-warnings");
    await warnings
      .getByText("awayAlerts: lock.front_door dropped: alerts must be siren, switch, light, script or scene entities")
      .waitFor();
    await warnings.getByText("set both haUrl and haToken, or neither: the pair is ignored").waitFor();
    await dialog.getByTestId("plugin-status").getByText("disarmed").waitFor();
    await dialog.screenshot({ path: join(ARTIFACTS, "plugins-security-settings-light-desktop.png") });

    // Saving again without typing the token keeps it; removing it deletes it.
    await dialog.getByLabel("Forget the stored “Home Assistant token (optional)”").check();
    await dialog.getByRole("button", { name: "Save settings" }).click();
    await dialog.getByText("Saved and applied.").waitFor();
    await eventually(async () => (await pluginOn("security"))?.secretsSet.length === 0);
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "hidden" });
    await row("security")
      .getByTestId("plugin-warnings")
      .getByText(/lock\.front_door dropped/)
      .waitFor();
    assert.equal(await row("security").getByTestId("plugin-device").count(), 5);
  });

  it("appliance cloud: the status line shows sign-in problems, then device switches show the chosen devices", async () => {
    const dialog = await openSettings("appliance-cloud");
    await dialog.getByTestId("plugin-status").getByText("not configured: enter the account e-mail and password").waitFor();
    await dialog.getByLabel("Account e-mail").fill(EMAIL);
    await dialog.getByLabel("Password", { exact: true }).fill("not-the-password");
    await dialog.getByRole("button", { name: "Save settings" }).click();
    await dialog.getByTestId("plugin-status").getByText("sign-in failed: wrong e-mail or password").waitFor();

    await dialog.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await dialog.getByRole("button", { name: "Save settings" }).click();
    await dialog
      .getByTestId("plugin-status")
      .getByText(`signed in: ${ACCOUNT.length} devices on the account, 0 shown`, { exact: false })
      .waitFor();
    // The quota is 3200 requests a day plus 1500 per device on the account.
    await dialog
      .getByTestId("plugin-polling")
      .getByText(`${(3200 + 1500 * ACCOUNT.length).toLocaleString("en-US")} cloud requests a day`, { exact: false })
      .waitFor();
    await dialog.getByTestId("plugin-unsupported").locator("summary").click();
    await dialog
      .getByTestId("plugin-unsupported")
      .getByText(/^Desk bulb \(ESL100\): /)
      .waitFor();

    // The schema grew one switch per supported device; all are off by default.
    const switches = dialog.getByTestId("device-switches");
    await switches.getByLabel("Kettle plug").waitFor();
    assert.equal(await switches.getByLabel("Kettle plug").isChecked(), false);
    assert.equal(await switches.getByLabel("Desk bulb").count(), 0, "no switch for an unsupported device");
    await switches.getByLabel("Kettle plug").check();
    await switches.getByLabel("Dual fryer").check();
    assert.equal(await dialog.getByLabel("Password", { exact: true }).inputValue(), "", "the password is never prefilled");
    await dialog.getByRole("button", { name: "Save settings" }).click();
    await dialog
      .getByTestId("plugin-status")
      .getByText(`signed in: ${ACCOUNT.length} devices on the account, 2 shown`, { exact: false })
      .waitFor();
    await dialog.screenshot({ path: join(ARTIFACTS, "plugins-appliance-settings-light-desktop.png") });

    const info = await pluginOn("appliance-cloud");
    assert.equal(info?.config?.device_plug, true);
    assert.equal(info?.config?.device_fry2, true);
    assert.equal(info?.config?.email, EMAIL);
    assert.deepEqual(info?.secretsSet, ["password"], "the password stayed stored though the form sent none");
    assert.ok(!JSON.stringify(await list()).includes(PASSWORD), "the password never comes back");
    await dialog.getByRole("button", { name: "Close" }).click();
    const names = await row("appliance-cloud").getByTestId("plugin-device").locator(".device-name").allTextContents();
    assert.ok(names.includes("Kettle plug"), names.join());
    assert.equal(names.length, 3, `a two-basket fryer is two plugs: ${names.join()}`);
  });

  it("saves screenshots, light and dark, desktop and phone", async () => {
    await Promise.all(
      LOOKS.map(async ({ colorScheme, phone, suffix }) => {
        const { page: shot, context } = await world.newPage({ colorScheme, phone });
        await shot.goto(`${world.proxy.url}#/plugins`);
        await settled(shot);
        await shot.locator('[data-testid="plugin-row"][data-state="running"]').first().waitFor();
        await shot.screenshot({ path: join(ARTIFACTS, `plugins-${suffix}.png`), fullPage: true });
        const labelled = colorScheme === "light" && !phone;
        if (labelled) assert.deepEqual(await unlabelledControls(shot), [], "labels on the plugins page");
        await shot.getByRole("button", { name: `Settings of Security on ${bridge.name}` }).click();
        await shot.getByTestId("plugin-settings").locator(".schema-form").waitFor();
        if (labelled) assert.deepEqual(await unlabelledControls(shot), [], "labels in the settings dialog");
        await shot.screenshot({ path: join(ARTIFACTS, `plugins-settings-${suffix}.png`) });
        await context.close();
      }),
    );
    assert.deepEqual(world.strayRequests, [], "every request stayed under the ingress prefix");
  });

  it("disables the example plugin (its devices leave) and uninstalls it", async () => {
    await page.getByRole("button", { name: `Disable ${EXAMPLE} on Garden` }).click();
    const confirm = page.getByRole("dialog");
    await confirm.getByText(`Disable ${EXAMPLE}?`).waitFor();
    await confirm.getByRole("button", { name: "Disable" }).click();
    await inState(EXAMPLE, "disabled");
    assert.equal(await row(EXAMPLE).getByTestId("plugin-device").count(), 0);
    const info = await pluginOn(EXAMPLE);
    assert.deepEqual([info?.enabled, info?.devices.length], [false, 0]);

    await page
      .locator(`[data-testid="package-row"][data-package="${EXAMPLE}"]`)
      .getByRole("button", { name: "Uninstall" })
      .click();
    await confirm.getByText(`Uninstall ${EXAMPLE}?`).waitFor();
    await confirm.getByRole("button", { name: "Uninstall" }).click();
    await page.getByText(`Uninstalled ${EXAMPLE}`).first().waitFor();
    await page.getByTestId("plugin-packages").getByText("No plugins installed").waitFor();
    await row(EXAMPLE).waitFor({ state: "detached" });
    assert.deepEqual((await list()).packages, []);
    assert.equal(await pluginOn(EXAMPLE), undefined);
    await page.screenshot({ path: join(ARTIFACTS, "plugins-empty-light-desktop.png") });
  });
});
