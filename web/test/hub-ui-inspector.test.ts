import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Locator, Page } from "playwright-core";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome } from "../../simulators/home-assistant/index.ts";
import { settled, unlabelledControls } from "./support/page-checks.ts";
import { ARTIFACTS, startUiWorld, type UiWorld } from "./support/ui-world.ts";

// The device inspector (issue 21, item 8) in the hub UI, through the ingress proxy: an "Inspect" action on each
// device row opens the endpoint as controllers read it, grouped by cluster, with live values that are marked when
// they change; readable at 1280 px and on a 390 px phone.

const LAMP = "light.bedside_lamp";
const LOCK = "lock.front_door";

interface DeviceRow {
  entityId: string;
  endpointNumber: number | null;
}

describe("hub UI: device inspector (demo home, real hub, headless Chromium)", { timeout: 150_000 }, () => {
  let world: UiWorld;
  let page: Page;
  let bridgeId: string;

  const attribute = (p: Page, cluster: string, name: string): Locator =>
    p.locator(`[data-testid="cluster"][data-cluster="${cluster}"] [data-testid="attribute"][data-name="${name}"]`);
  const valueCell = (p: Page, cluster: string, name: string) => attribute(p, cluster, name).getByTestId("attribute-value");
  const endpointOf = async (entityId: string) => {
    const { body } = await world.api<{ devices: DeviceRow[] }>("GET", `/api/matter/bridges/${bridgeId}/devices`);
    const number = body.devices.find((d) => d.entityId === entityId)?.endpointNumber;
    assert.ok(typeof number === "number", `${entityId} has an endpoint`);
    return number;
  };

  before(async () => {
    assertNetworkIsolated();
    world = await startUiWorld(createDemoHome());
    ({ page } = await world.newPage());
    const { port } = (await world.api<{ port: number }>("GET", "/api/matter/next-port")).body;
    const created = await world.api<{ id: string }>("POST", "/api/matter/bridges", {
      name: "Inspected",
      port,
      filter: { include: [LAMP, LOCK, "sensor.front_door_lock_battery"].map((value) => ({ type: "entity_id", value })) },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    bridgeId = created.body.id;
    world.sim.setState(LAMP, "off");
    await page.goto(world.proxy.url);
    await settled(page);
  });
  after(async () => {
    await world?.close();
  });

  it("opens from the device list's Inspect action and shows the endpoint grouped by cluster", async () => {
    await page.evaluate((hash) => {
      location.hash = hash;
    }, `/bridges/${bridgeId}`);
    await settled(page);
    const row = page.locator(`[data-testid="device-row"][data-entity-id="${LAMP}"]`);
    await row.getByTestId("inspect").waitFor({ timeout: 30_000 });
    await row.getByTestId("inspect").click();
    await page.getByTestId("inspector").waitFor();
    assert.equal(await page.getByTestId("endpoint-number").textContent(), String(await endpointOf(LAMP)));
    assert.match(
      (await page.getByTestId("device-types").textContent()) ?? "",
      /ExtendedColorLight \(0x010D, revision \d+\), BridgedNode/,
    );
    assert.match((await page.locator("#page-title").textContent()) ?? "", /^Bedside Lamp · Endpoint \d+$/);
    const clusters = await page.getByTestId("cluster").evaluateAll((cards) => cards.map((c) => c.getAttribute("data-cluster")));
    for (const name of ["OnOff", "LevelControl", "ColorControl", "Descriptor", "BridgedDeviceBasicInformation"])
      assert.ok(clusters.includes(name), `${name} in ${clusters.join()}`);
    assert.equal(await valueCell(page, "OnOff", "OnOff").textContent(), "false");
    assert.equal(await valueCell(page, "OnOff", "StartUpOnOff").textContent(), "null", "nulls say null");
    assert.match((await valueCell(page, "ColorControl", "ColorMode").textContent()) ?? "", /^[A-Za-z]+ \(\d\)$/, "enums by name");
    assert.match(
      (await valueCell(page, "ColorControl", "ColorCapabilities").textContent()) ?? "",
      /HueSaturation, Xy, ColorTemperature/,
      "bitmaps as flags",
    );
    assert.match(
      (await page.locator('[data-cluster="LevelControl"] .cluster-meta').textContent()) ?? "",
      /features: OnOff, Lighting/,
    );
    assert.deepEqual(await unlabelledControls(page), []);
    assert.deepEqual(world.strayRequests, [], "every request stays under the ingress prefix");
  });

  it("follows Home Assistant live and marks the values that changed", async () => {
    assert.equal(await page.getByTestId("inspector-live").getAttribute("data-live"), "yes");
    world.sim.setState(LAMP, "on", { brightness: 77, color_mode: "color_temp", color_temp_kelvin: 2700 });
    await attribute(page, "OnOff", "OnOff").and(page.locator('[data-changed="yes"]')).waitFor({ timeout: 10_000 });
    assert.equal(await valueCell(page, "OnOff", "OnOff").textContent(), "true");
    await valueCell(page, "LevelControl", "CurrentLevel")
      .filter({ hasText: /^7[67]$/ })
      .waitFor({ timeout: 10_000 });
    assert.equal(await attribute(page, "LevelControl", "CurrentLevel").getAttribute("data-changed"), "yes");
    assert.equal(await attribute(page, "LevelControl", "MaxLevel").getAttribute("data-changed"), null, "unchanged ones are not");
    await page.screenshot({ path: join(ARTIFACTS, "inspector-light-desktop.png"), fullPage: true });
    await page.locator('[data-cluster="OnOff"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, "inspector-light-desktop-view.png") });
  });

  it("names a lock's values without its PIN, and leaves out what needs Administer privilege on the node", async () => {
    const set = await world.api("PUT", `/api/lock-credentials/${LOCK}`, { pin: "482913" });
    assert.equal(set.status, 201);
    await page.evaluate(
      (hash) => {
        location.hash = hash;
      },
      `/bridges/${bridgeId}/endpoints/${await endpointOf(LOCK)}`,
    );
    await page.getByTestId("inspector").waitFor();
    await valueCell(page, "DoorLock", "RequirePinForRemoteOperation")
      .filter({ hasText: /^true$/ })
      .waitFor({ timeout: 10_000 });
    assert.equal(await valueCell(page, "DoorLock", "LockState").textContent(), "Locked (1)");
    assert.ok(!((await page.getByTestId("inspector").textContent()) ?? "").includes("482913"));
    // The bridge node (endpoint 0): certificates are named, not shown; its parts link to the aggregator and devices.
    await page.evaluate((hash) => {
      location.hash = hash;
    }, `/bridges/${bridgeId}/endpoints/0`);
    await attribute(page, "OperationalCredentials", "Nocs").waitFor();
    assert.match((await attribute(page, "OperationalCredentials", "Nocs").textContent()) ?? "", /Administer privilege/);
    assert.equal(await attribute(page, "OperationalCredentials", "Nocs").getByTestId("attribute-value").count(), 0);
    await page.screenshot({ path: join(ARTIFACTS, "inspector-node-desktop.png"), fullPage: false });
  });

  it("reads well on a 390 px phone", async () => {
    const { page: phone } = await world.newPage({ phone: true });
    await phone.goto(`${world.proxy.url}#/bridges/${bridgeId}/endpoints/${await endpointOf(LAMP)}`);
    await settled(phone);
    await phone.getByTestId("inspector").waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, "nothing wider than the phone");
    world.sim.setState(LAMP, "off");
    await attribute(phone, "OnOff", "OnOff").and(phone.locator('[data-changed="yes"]')).waitFor({ timeout: 10_000 });
    await phone.screenshot({ path: join(ARTIFACTS, "inspector-light-phone.png"), fullPage: true });
    await phone.evaluate(() => window.scrollTo(0, 0));
    await phone.screenshot({ path: join(ARTIFACTS, "inspector-top-phone.png") });
    await attribute(phone, "OnOff", "OnOff").scrollIntoViewIfNeeded();
    await phone.screenshot({ path: join(ARTIFACTS, "inspector-onoff-phone.png") });
    await phone
      .getByTestId("cluster")
      .first()
      .screenshot({ path: join(ARTIFACTS, "inspector-cluster-phone.png") });
    // The device list's rows offer the action on the phone too.
    await phone.evaluate((hash) => {
      location.hash = hash;
    }, `/bridges/${bridgeId}`);
    await settled(phone);
    const row = phone.locator(`[data-testid="device-row"][data-entity-id="${LAMP}"]`);
    await row.getByTestId("inspect").waitFor();
    await row.screenshot({ path: join(ARTIFACTS, "inspector-row-phone.png") });
    assert.deepEqual(world.strayRequests, []);
  });
});
