import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
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
});
