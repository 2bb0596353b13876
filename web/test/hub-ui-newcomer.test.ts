import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { eventually } from "../../hub/test/support/test-context.ts";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome } from "../../simulators/home-assistant/index.ts";
import { settled } from "./support/page-checks.ts";
import { ARTIFACTS, startUiWorld, type UiWorld } from "./support/ui-world.ts";

// What a newcomer trips over (issue 21, items 3 to 5): the phone's navigation, labels that say what is true, filters
// that explain themselves. The real hub under the ingress path, the demo home, headless Chromium.

const SECTIONS = ["Dashboard", "Bridges", "Entities", "Lock PINs", "Plugins", "Backup & transfer", "Logs", "Health", "Settings"];

/** The page scrolls sideways (wider than the window): what a phone user must never have to do. */
function sidewaysScroll(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
}

describe("hub UI for a newcomer (ingress path, demo home, headless Chromium)", { timeout: 120_000 }, () => {
  let world: UiWorld;
  let bridgeId: string;

  before(async () => {
    assertNetworkIsolated();
    world = await startUiWorld(createDemoHome());
  });
  after(async () => {
    await world?.close();
  });

  it("on a 390 px phone, the Menu button opens every section, marks the current one, and Escape closes it", async () => {
    const { page, context } = await world.newPage({ phone: true });
    await page.goto(world.proxy.url);
    await settled(page);
    const toggle = page.getByRole("button", { name: "Menu" });
    const nav = page.getByRole("navigation", { name: "Sections", exact: true });
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    assert.equal(await nav.isVisible(), false, "folded away until asked for");
    await page.screenshot({ path: join(ARTIFACTS, "newcomer-nav-closed-phone.png") });

    for (const [i, section] of SECTIONS.entries()) {
      await toggle.click();
      assert.equal(await toggle.getAttribute("aria-expanded"), "true");
      const links = nav.getByRole("link");
      assert.deepEqual(await links.allTextContents(), SECTIONS);
      for (const link of await links.all()) {
        const box = (await link.boundingBox())!;
        assert.ok(box.x >= 0 && box.x + box.width <= 390 && box.height >= 40, `${await link.textContent()} in sight`);
      }
      // Focus lands on the current section, which says so.
      await page.waitForFunction(() => document.activeElement?.getAttribute("aria-current") === "page");
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), SECTIONS[Math.max(0, i - 1)]);
      if (i === 1) await page.screenshot({ path: join(ARTIFACTS, "newcomer-nav-open-phone.png") });
      await nav.getByRole("link", { name: section, exact: true }).click();
      await settled(page);
      assert.equal(await toggle.getAttribute("aria-expanded"), "false", "choosing a section closes the menu");
      assert.equal(await nav.isVisible(), false);
      const { scrollWidth, innerWidth } = await sidewaysScroll(page);
      assert.ok(scrollWidth <= innerWidth, `${section}: no sideways scrolling (${scrollWidth} > ${innerWidth})`);
      await toggle.click();
      assert.equal(await nav.getByRole("link", { name: section, exact: true }).getAttribute("aria-current"), "page");
      await page.keyboard.press("Escape");
      assert.equal(await toggle.getAttribute("aria-expanded"), "false", "Escape closes the menu");
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-testid")), "nav-toggle");
    }
    assert.deepEqual(world.strayRequests, []);
    await context.close();
  });

  it("on a desktop, the side bar lists every section and no Menu button shows", async () => {
    const { page, context } = await world.newPage();
    await page.goto(`${world.proxy.url}#/bridges`);
    await settled(page);
    assert.equal(await page.getByRole("button", { name: "Menu" }).isVisible(), false);
    const nav = page.getByRole("navigation", { name: "Sections", exact: true });
    assert.deepEqual(await nav.getByRole("link").allTextContents(), SECTIONS);
    assert.equal(await nav.getByRole("link", { name: "Bridges" }).getAttribute("aria-current"), "page");
    await page.screenshot({ path: join(ARTIFACTS, "newcomer-nav-desktop.png") });
    await context.close();
  });
  it("filters explain themselves: how rules combine, and the hidden entities the count leaves out", async () => {
    const lights = { include: [{ type: "domain", value: "light" }], exclude: [], includeHidden: false };
    const expected = await world.api<{ total: number; leftOut: { hidden: number; disabled: number } }>(
      "POST",
      "/api/matter/filter-preview",
      { filter: lights },
    );
    assert.ok(expected.body.leftOut.hidden >= 1 && expected.body.leftOut.disabled >= 1, JSON.stringify(expected.body));
    for (const phone of [false, true]) {
      const { page, context } = await world.newPage({ phone });
      await page.goto(`${world.proxy.url}#/bridges/new`);
      await settled(page);
      const combine = page.getByTestId("rules-combine");
      await combine
        .getByText("With no include rule, every entity is on this bridge except those matching an exclude rule.")
        .waitFor();
      const include = page.getByTestId("include-rules");
      await include.getByText("Any one of these rules is enough to include an entity.").waitFor();
      await page
        .getByTestId("exclude-rules")
        .getByText("One matching rule leaves an entity out, whatever the include rules say.")
        .waitFor();
      await include.getByRole("button", { name: "Add rule" }).click();
      await include.getByLabel("Rule 1 value").selectOption("light");
      await combine
        .getByText("An entity is on this bridge when it matches any one of the include rules and none of the exclude rules.")
        .waitFor();
      await page
        .getByTestId("preview-count")
        .filter({ hasText: `${expected.body.total} entities match` })
        .waitFor();
      const hidden = page.getByTestId("left-out-hidden");
      const n = expected.body.leftOut.hidden;
      await hidden.getByText(new RegExp(`^${n} more entit(y matches|ies match) but (is|are) hidden in Home Assistant`)).waitFor();
      await page
        .getByTestId("left-out-disabled")
        .getByText(/disabled in Home Assistant and never exposed/)
        .waitFor();
      await page
        .getByTestId("filter-preview")
        .screenshot({ path: join(ARTIFACTS, `newcomer-filter-left-out-${phone ? "phone" : "desktop"}.png`) });
      if (phone) {
        const { scrollWidth, innerWidth } = await sidewaysScroll(page);
        assert.ok(scrollWidth <= innerWidth, `no sideways scrolling (${scrollWidth})`);
        await page.screenshot({ path: join(ARTIFACTS, "newcomer-filter-phone.png"), fullPage: true });
      } else {
        await page.screenshot({ path: join(ARTIFACTS, "newcomer-filter-desktop.png") });
      }
      // The way in that the sentence names: the count grows by exactly that number, and the sentence goes.
      await page.getByLabel("Include entities hidden in Home Assistant").check();
      await page
        .getByTestId("preview-count")
        .filter({ hasText: `${expected.body.total + n} entities match` })
        .waitFor();
      await hidden.waitFor({ state: "detached" });
      await context.close();
    }
  });

  it("the mapping editor offers only the device types that fit the entity", async () => {
    const port = (await world.api<{ port: number }>("GET", "/api/matter/next-port")).body.port;
    const created = await world.api<{ id: string }>("POST", "/api/matter/bridges", {
      name: "Garden",
      port,
      filter: {
        include: [
          { type: "entity_id", value: "switch.garden_pump" },
          { type: "entity_id", value: "light.kitchen_spots" },
        ],
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    bridgeId = created.body.id;
    const allowed = (
      await world.api<{ allowed: string[] }>("GET", `/api/entity-mappings/${bridgeId}/switch.garden_pump/device-types`)
    ).body.allowed;
    for (const phone of [false, true]) {
      const { page, context } = await world.newPage({ phone });
      await page.goto(`${world.proxy.url}#/bridges/${bridgeId}`);
      await settled(page);
      const row = page.locator('[data-testid="device-row"][data-entity-id="switch.garden_pump"]');
      await row.waitFor({ timeout: 30_000 });
      await row.getByRole("button", { name: "Edit mapping of switch.garden_pump" }).click();
      const editor = page.getByTestId("mapping-editor");
      const select = editor.getByLabel("Matter device type");
      await page.locator('[data-testid="device-type-select"][data-offered="fitting"]').waitFor();
      const options = await select.locator("option").evaluateAll((els) => els.map((el) => (el as HTMLOptionElement).value));
      assert.deepEqual(options, ["", ...allowed].sort(), "Automatic and the fitting types, nothing else");
      await editor.getByText("Only the types that fit this entity are offered.").waitFor();
      await editor.screenshot({ path: join(ARTIFACTS, `newcomer-mapping-editor-${phone ? "phone" : "desktop"}.png`) });
      await context.close();
    }
  });

  it("built-in plugins go by their names and say they need settings rather than Running", async () => {
    for (const phone of [false, true]) {
      const { page, context } = await world.newPage({ phone });
      await page.goto(`${world.proxy.url}#/plugins`);
      await settled(page);
      assert.deepEqual(await page.getByTestId("builtin-plugin").locator("strong").allTextContents(), [
        "Camera",
        "Security",
        "Appliance cloud",
      ]);
      const rows = page.locator(`[data-testid="plugin-bridge"][data-bridge-id="${bridgeId}"] [data-testid="plugin-row"]`);
      await rows.first().waitFor();
      await eventually(async () => (await rows.locator('[data-state="running"]').count()) === 3, 20_000);
      assert.deepEqual(await rows.locator("strong").allTextContents(), ["Camera", "Security", "Appliance cloud"]);
      assert.deepEqual(await rows.getByTestId("plugin-state").allTextContents(), [
        "Needs settings",
        "Needs settings",
        "Needs settings",
      ]);
      // Each says what it needs in its own status line.
      await rows.nth(2).getByTestId("plugin-status").getByText("enter the account e-mail and password").waitFor();
      await page.screenshot({ path: join(ARTIFACTS, `newcomer-plugins-${phone ? "phone" : "desktop"}.png`), fullPage: true });
      await context.close();
    }
  });

  it("Health keeps memory apart from Home Assistant's counters and spells event names out", async () => {
    for (const phone of [false, true]) {
      const { page, context } = await world.newPage({ phone });
      await page.goto(`${world.proxy.url}#/health`);
      await settled(page);
      const memory = page.locator(".card", { has: page.getByRole("heading", { name: "Memory", exact: true }) });
      await memory.getByText("Process").waitFor();
      assert.equal(await memory.getByText("State events").count(), 0, "no event counters under Memory");
      const activity = page.getByTestId("ha-activity");
      await activity.getByText("State events").waitFor();
      await activity.getByText("Counted since the hub started.").waitFor();
      const diagnostics = page.getByTestId("diagnostics");
      await diagnostics.locator(".component", { hasText: "Home Assistant connected" }).first().waitFor();
      assert.equal(await diagnostics.getByText(/\bHa connected\b/).count(), 0);
      await page.screenshot({ path: join(ARTIFACTS, `newcomer-health-${phone ? "phone" : "desktop"}.png`), fullPage: phone });
      await context.close();
    }
  });

  it("demo mode is a notice of its own on the dashboard, not a recent problem", async () => {
    for (const phone of [false, true]) {
      const { page, context } = await world.newPage({ phone });
      // This hub talks to a simulator, not the built-in demo: the test says "demo" the way the hub does, in /api/health.
      await page.route("**/api/health", async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, json: { ...(await response.json()), demo: true } });
      });
      await page.goto(world.proxy.url);
      await settled(page);
      await page
        .getByTestId("demo-notice")
        .getByText(/^Demo mode: the hub runs against a simulated Home Assistant home/)
        .waitFor();
      const problems = page.locator(".card", { has: page.getByRole("heading", { name: "Recent problems" }) });
      await problems.waitFor();
      assert.equal(await problems.getByText(/DEMO/).count(), 0);
      await page.screenshot({ path: join(ARTIFACTS, `newcomer-dashboard-demo-${phone ? "phone" : "desktop"}.png`) });
      await context.close();
    }
  });

  it("the restore preview counts bridges as it lists them, and a broken file gets a plain sentence", async () => {
    const port = (await world.api<{ port: number }>("GET", "/api/matter/next-port")).body.port;
    const second = await world.api<{ id: string }>("POST", "/api/matter/bridges", {
      name: "Porch",
      port,
      filter: { include: [{ type: "domain", value: "cover" }] },
      autoStart: false,
    });
    assert.equal(second.status, 201);
    for (const phone of [false, true]) {
      const { page, context } = await world.newPage({ phone });
      await page.goto(`${world.proxy.url}#/backup`);
      await settled(page);
      await page.getByText("Not in it: the hub's login, plugin passwords and lock PINs.", { exact: false }).first().waitFor();
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-backup").click()]);
      const zip = readFileSync(await download.path());
      if (!phone) assert.equal((await world.api("DELETE", `/api/matter/bridges/${second.body.id}`)).status, 204);
      await page.getByLabel("Backup file").setInputFiles({ name: "backup.zip", mimeType: "application/zip", buffer: zip });
      const preview = page.getByTestId("restore-preview");
      await preview.getByText("Porch").waitFor();
      // Desktop: Porch was deleted after the backup, so it comes back; phone: both are there and get replaced.
      await preview
        .getByTestId("restore-bridge-changes")
        .filter({ hasText: phone ? "0 added, 2 replaced, 0 removed" : "1 added, 1 replaced, 0 removed" })
        .waitFor();
      assert.equal(await preview.locator(".list-row").count(), 2);
      await page.screenshot({
        path: join(ARTIFACTS, `newcomer-restore-preview-${phone ? "phone" : "desktop"}.png`),
        fullPage: phone,
      });
      await page.getByLabel("Backup file").setInputFiles({
        name: "cut.zip",
        mimeType: "application/zip",
        buffer: zip.subarray(0, zip.length - 30),
      });
      const alert = page.getByRole("alert").filter({ hasText: "this file is not a complete ZIP archive" }).first();
      await alert.waitFor();
      assert.doesNotMatch((await alert.textContent()) ?? "", /signature|central directory/i);
      if (!phone) {
        // Put Porch back for the phone's round, as a restore would.
        const again = await world.api<{ id: string }>("POST", "/api/matter/bridges", {
          name: "Porch",
          port,
          filter: { include: [{ type: "domain", value: "cover" }] },
          autoStart: false,
        });
        assert.equal(again.status, 201);
      }
      await context.close();
    }
  });
});
