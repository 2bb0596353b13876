import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { settled } from "./support/page-checks.ts";
import { ARTIFACTS, type PortalWorld, startPortalWorld } from "./support/portal-world.ts";

// The admin console on a 390 px phone (issue 21, item 3): every section behind the top bar's Menu button.

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/admin`);
  await page.getByLabel("E-mail").fill("root@portal.test");
  await page.getByLabel("Password").fill("admin-password-Xy7!q");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
  await settled(page);
}

const SECTIONS = ["Dashboard", "Servers", "Tokens", "Branding", "Bots", "Integrations", "Audit log"];

describe("portal admin console on a phone: the Menu button reaches every section", { timeout: 90_000 }, () => {
  let world: PortalWorld;

  before(async () => {
    world = await startPortalWorld();
  });
  after(async () => {
    await world?.close();
  });

  it("opens the full list, marks the current section, closes on a choice and on Escape, never scrolls sideways", async () => {
    const { page } = await world.newPage({ phone: true });
    await signIn(page, world.portal.url);
    const toggle = page.getByRole("button", { name: "Menu" });
    const nav = page.getByRole("navigation", { name: "Sections", exact: true });
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    assert.equal(await nav.isVisible(), false);
    await page.screenshot({ path: join(ARTIFACTS, "portal-admin-nav-closed-phone.png") });

    for (const [i, section] of SECTIONS.entries()) {
      await toggle.click();
      assert.equal(await toggle.getAttribute("aria-expanded"), "true");
      assert.deepEqual(await nav.getByRole("link").allTextContents(), SECTIONS);
      for (const link of await nav.getByRole("link").all()) {
        const box = (await link.boundingBox())!;
        assert.ok(box.x >= 0 && box.x + box.width <= 390 && box.height >= 40, `${await link.textContent()} in sight`);
      }
      await page.waitForFunction(() => document.activeElement?.getAttribute("aria-current") === "page");
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), SECTIONS[Math.max(0, i - 1)]);
      if (i === 1) await page.screenshot({ path: join(ARTIFACTS, "portal-admin-nav-open-phone.png") });
      await nav.getByRole("link", { name: section, exact: true }).click();
      await settled(page);
      assert.equal(await toggle.getAttribute("aria-expanded"), "false", "choosing a section closes the menu");
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.scrollingElement!.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      assert.ok(scrollWidth <= innerWidth, `${section}: no sideways scrolling (${scrollWidth} > ${innerWidth})`);
      await toggle.click();
      assert.equal(await nav.getByRole("link", { name: section, exact: true }).getAttribute("aria-current"), "page");
      await page.keyboard.press("Escape");
      assert.equal(await toggle.getAttribute("aria-expanded"), "false", "Escape closes the menu");
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-testid")), "nav-toggle");
    }
    await page.screenshot({ path: join(ARTIFACTS, "portal-admin-audit-phone.png") });

    const { page: desktop } = await world.newPage();
    await signIn(desktop, world.portal.url);
    assert.equal(await desktop.getByRole("button", { name: "Menu" }).isVisible(), false);
    assert.deepEqual(
      await desktop.getByRole("navigation", { name: "Sections", exact: true }).getByRole("link").allTextContents(),
      SECTIONS,
    );
    assert.deepEqual(world.strayRequests, []);
    assert.deepEqual(world.cspViolations, []);
  });
});
