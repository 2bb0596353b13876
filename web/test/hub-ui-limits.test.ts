import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { eventually } from "../../hub/test/support/test-context.ts";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { generateHome } from "../../simulators/home-assistant/index.ts";
import { settled, unlabelledControls } from "./support/page-checks.ts";
import { ARTIFACTS, startUiWorld, type UiWorld } from "./support/ui-world.ts";

// Controller limits (issue 20, part 3) in the hub UI, under the ingress path: a generated home of 240 entities is
// over Apple Home's 150 accessories. The bridge page and the health view warn with the source, the bridge form picks
// controllers and lists their known gaps with the leave-out switch while the preview warns, and the split dialog
// proposes bridges that fit and creates them only when confirmed.

const LEAK = "binary_sensor.basement_leak";

interface Record {
  id: string;
  name: string;
  port: number;
  status: string;
  autoStart: boolean;
  controllers: string[];
  leaveOutUnsupported: boolean;
}

/** A generated home of 240 entities, plus a leak sensor (a Water Leak Detector, which Alexa is known to break on). */
function homeWithLeakSensor() {
  const home = generateHome(240, 5);
  const contact = home.states.find((state) => state.entity_id.startsWith("binary_sensor."));
  assert.ok(contact);
  home.states.push({
    ...contact,
    entity_id: LEAK,
    state: "off",
    attributes: { device_class: "moisture", friendly_name: "Basement leak" },
  });
  return home;
}

async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((hash) => {
    location.hash = hash;
  }, path);
  await settled(page);
}

describe("hub UI: controller limits (generated home, real hub, headless Chromium)", { timeout: 150_000 }, () => {
  let world: UiWorld;
  let page: Page;
  let bridge: Record;
  const bridges = async () => (await world.api<Record[]>("GET", "/api/matter/bridges")).body;
  /** The same page on a 390 px phone, saved as `<name>-phone.png` once `ready` shows. */
  /**
   * The page at `path` on a 390 px phone once `ready` has run: the whole page as `<name>-phone.png`, only the
   * viewport (`fullPage` false, for a dialog), or the elements `ready` returns, as `<name>-<testid>-phone.png`.
   */
  const phoneShot = async (
    path: string,
    name: string,
    ready: (page: Page) => Promise<unknown>,
    options: { fullPage?: boolean; parts?: string[] } = {},
  ) => {
    const { page: phone, context } = await world.newPage({ phone: true });
    await phone.goto(`${world.proxy.url}#${path}`);
    await settled(phone);
    await ready(phone);
    if (options.parts) {
      for (const part of options.parts) {
        await phone.getByTestId(part).screenshot({ path: join(ARTIFACTS, `${name}-${part}-phone.png`) });
      }
    } else {
      await phone.screenshot({ path: join(ARTIFACTS, `${name}-phone.png`), fullPage: options.fullPage ?? true });
    }
    await context.close();
  };

  before(async () => {
    assertNetworkIsolated();
    world = await startUiWorld(homeWithLeakSensor());
    ({ page } = await world.newPage());
    const { port } = (await world.api<{ port: number }>("GET", "/api/matter/next-port")).body;
    const created = await world.api<Record>("POST", "/api/matter/bridges", {
      name: "Whole house",
      port,
      filter: { include: [], exclude: [] },
      controllers: ["apple_home"],
      autoStart: false,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    bridge = created.body;
    await page.goto(world.proxy.url);
    await settled(page);
  });
  after(async () => {
    await world?.close();
  });

  it("warns on the bridge page which limit is exceeded, by how much, and where the limit comes from", async () => {
    await go(page, `/bridges/${bridge.id}`);
    const card = page.getByTestId("bridge-warnings");
    await card.getByText(/devices on this bridge; Apple Home is reported to take at most 150 per bridge/).waitFor();
    assert.equal(await page.getByTestId("bridge-controllers").textContent(), "Apple Home");
    await card.getByText("Sources").click();
    const link = card.getByRole("link", { name: /Luligu\/matterbridge README.*\(checked 2026-11-27\)/ });
    assert.match((await link.getAttribute("href")) ?? "", /^https:\/\/github\.com\/Luligu\/matterbridge/);
    await card.getByRole("button", { name: "Split…" }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "limits-bridge-warnings-desktop.png"), fullPage: true });
    await phoneShot(`/bridges/${bridge.id}`, "limits-bridge-warnings", (phone) => phone.getByTestId("bridge-warnings").waitFor());
  });

  it("shows the same warning in the health view", async () => {
    await go(page, "/health");
    await page
      .getByTestId("health-warnings")
      .getByText(/Apple Home is reported to take at most 150/)
      .waitFor();
  });

  it("picks controllers in the bridge form, lists their known gaps with the leave-out switch, and warns in the preview", async () => {
    await go(page, `/bridges/${bridge.id}/edit`);
    const picker = page.getByTestId("controller-picker");
    assert.equal(await picker.getByLabel("Apple Home").isChecked(), true);
    await page
      .getByTestId("preview-warnings")
      .getByText(/Apple Home is reported to take at most 150/)
      .waitFor();
    assert.match((await page.getByTestId("preview-devices").textContent()) ?? "", /^\d+ Matter devices, \d+ part of others/);

    await picker.getByLabel("Amazon Alexa").check();
    const flagged = page.getByTestId("flagged-types");
    await flagged.getByText(/^Device types the chosen controllers do not show or break on \(\d+\)$/).click();
    await flagged.getByTestId("flagged-type").filter({ hasText: "Water leak detector" }).getByText("breaks the bridge").waitFor();
    await page
      .getByTestId("preview-warnings")
      .getByText(/Amazon Alexa is reported to take at most 50/)
      .waitFor();
    const leak = page.getByTestId("preview-warnings").getByTestId("controller-warning").filter({ hasText: LEAK });
    assert.equal(
      await leak.locator(".warning-message").textContent(),
      "Amazon Alexa is known to break on Water leak detector (1 on this bridge)",
    );
    await page.getByTestId("preview-warnings").screenshot({ path: join(ARTIFACTS, "limits-preview-warnings-desktop.png") });
    const leaveOut = page.getByLabel("Leave out device types these controllers do not show");
    await leaveOut.check();
    await flagged.getByTestId("flagged-type").filter({ hasText: "Speaker" }).getByText("left out").first().waitFor();
    await leak.waitFor({ state: "detached" });
    assert.equal(
      await flagged.getByTestId("flagged-type").filter({ hasText: "Robot vacuum" }).getByText("warning only").count(),
      1,
      "a gap that depends on the bridge is never left out",
    );
    assert.deepEqual(await unlabelledControls(page), []);
    await page.screenshot({ path: join(ARTIFACTS, "limits-bridge-form-desktop.png"), fullPage: true });
    await page.getByTestId("controllers-card").screenshot({ path: join(ARTIFACTS, "limits-controllers-card-desktop.png") });

    // Alexa off again (the split below follows Apple's limit); the leave-out switch is saved.
    await picker.getByLabel("Amazon Alexa").uncheck();
    await page.getByTestId("save-bridge").click();
    await page.locator("h1", { hasText: "Whole house" }).waitFor();
    const saved = (await world.api<Record>("GET", `/api/matter/bridges/${bridge.id}`)).body;
    assert.deepEqual(saved.controllers, ["apple_home"]);
    assert.equal(saved.leaveOutUnsupported, true);
    await phoneShot(
      `/bridges/${bridge.id}/edit`,
      "limits-bridge-form",
      async (phone) => {
        await phone.getByTestId("controller-picker").getByLabel("Amazon Alexa").check();
        await phone.getByTestId("flagged-types").locator("> summary").click();
        await phone.getByTestId("flagged-types").getByText("Water leak detector").waitFor();
        await phone
          .getByTestId("preview-warnings")
          .getByText(/Amazon Alexa is reported/)
          .waitFor();
      },
      { parts: ["controllers-card", "preview-warnings"] },
    );
  });

  it("proposes a split that fits, creates nothing before the confirm, then creates the bridges and stops this one", async () => {
    await go(page, `/bridges/${bridge.id}`);
    await page.getByTestId("bridge-warnings").getByRole("button", { name: "Split…" }).click();
    const dialog = page.getByTestId("split-dialog");
    await dialog.getByTestId("split-bridge").first().waitFor();
    await dialog.getByText("At most 150 devices per bridge (Apple Home)").waitFor();
    const counts = await dialog.getByTestId("split-count").allTextContents();
    assert.ok(counts.length >= 2, counts.join(" | "));
    for (const count of counts) assert.match(count, /^\d+ \/ 150 devices$/);
    assert.deepEqual(await unlabelledControls(page), []);
    await dialog.screenshot({ path: join(ARTIFACTS, "limits-split-dialog-desktop.png") });
    assert.equal((await bridges()).length, 1, "the preview created nothing");

    // By label: the generated home labels no entity, so everything is left for one bridge, over the limit.
    await dialog.getByLabel("Label").check();
    await dialog.getByTestId("split-count").filter({ hasText: "over the limit" }).waitFor();
    await dialog.getByLabel("Area").check();
    await dialog.getByTestId("split-count").filter({ hasText: "over the limit" }).waitFor({ state: "detached" });
    const names = await dialog.getByTestId("split-bridge").locator("strong").allTextContents();

    await phoneShot(
      `/bridges/${bridge.id}`,
      "limits-split-dialog",
      async (phone) => {
        await phone.getByTestId("bridge-warnings").getByRole("button", { name: "Split…" }).click();
        await phone.getByTestId("split-bridge").first().waitFor();
      },
      { fullPage: false },
    );
    assert.equal((await bridges()).length, 1, "still nothing created");

    await dialog.getByTestId("confirm-split").click();
    await page.locator("h1", { hasText: "Bridges" }).waitFor();
    await page.getByText(`Created ${names.length} bridges; pair each with your controllers`).first().waitFor();
    const all = await bridges();
    assert.deepEqual(
      all
        .filter((b) => b.id !== bridge.id)
        .map((b) => b.name)
        .sort(),
      [...names].sort(),
    );
    const ports = all.map((b) => b.port);
    assert.equal(new Set(ports).size, ports.length, "each bridge on its own port");
    const original = all.find((b) => b.id === bridge.id);
    assert.equal(original?.status, "stopped");
    assert.equal(original?.autoStart, false);
    await eventually(async () => (await bridges()).filter((b) => b.status === "running").length === names.length, 60_000);
    await page.screenshot({ path: join(ARTIFACTS, "limits-after-split-desktop.png"), fullPage: true });
    assert.deepEqual(world.strayRequests, [], "every request stayed under the ingress prefix");
  });
});
