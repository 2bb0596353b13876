import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { generateHome } from "../../simulators/home-assistant/index.ts";
import { LANGUAGES, type Language } from "../common/i18n.ts";
import { HUB_LOCALES, LANGUAGE_KEY } from "../hub/src/i18n.ts";
import { contextOptions } from "./support/browser.ts";
import { settled } from "./support/page-checks.ts";
import { ARTIFACTS, startUiWorld, type UiWorld } from "./support/ui-world.ts";

// Languages (issue 21, item 9) in the hub UI under the ingress path: the browser's language picks the translation,
// Home Assistant's frontend language (its localStorage, same origin under ingress) wins over the browser's, and the
// choice in Settings overrides both and survives a reload. Every language is photographed on a 390 px phone, and
// no page may grow wider than the phone (long German compounds must wrap, not push the layout sideways).

/** The browser locale each language is tested with (what navigator.languages reports). */
const BROWSER_TAGS: Record<Exclude<Language, "en">, string> = {
  de: "de-DE",
  fr: "fr-FR",
  nl: "nl-NL",
  es: "es-ES",
  it: "it-IT",
  pl: "pl-PL",
  "pt-BR": "pt-BR",
};

describe("hub UI: languages (real hub, headless Chromium)", { timeout: 240_000 }, () => {
  let world: UiWorld;
  let bridgeId: string;

  /** A phone page in `locale`, with `storage` in localStorage before the app loads. */
  const openPhone = async (locale: string, path: string, storage: Record<string, string> = {}) => {
    const context = await world.browser.newContext({ ...contextOptions({ phone: true }, 800), locale });
    await context.addInitScript((entries) => {
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, storage);
    const page = await context.newPage();
    await page.goto(`${world.proxy.url}#${path}`);
    await settled(page);
    return { page, context };
  };
  const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

  before(async () => {
    assertNetworkIsolated();
    world = await startUiWorld(generateHome(40, 3));
    const { port } = (await world.api<{ port: number }>("GET", "/api/matter/next-port")).body;
    const created = await world.api<{ id: string }>("POST", "/api/matter/bridges", {
      name: "Wohnzimmer und Küche",
      port,
      filter: { include: [{ type: "domain", value: "light" }], exclude: [] },
      autoStart: false,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    bridgeId = created.body.id;
  });
  after(async () => {
    await world?.close();
  });

  for (const [language, tag] of Object.entries(BROWSER_TAGS) as [Exclude<Language, "en">, string][]) {
    it(`${LANGUAGES[language]}: follows a ${tag} browser, fits a 390 px phone`, async () => {
      const messages = (await HUB_LOCALES[language]()).default;
      const { page, context } = await openPhone(tag, "/");
      await page.getByRole("heading", { name: messages.dashboard.title, level: 1 }).waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), language);
      assert.ok((await pageWidth(page)) <= 390, `${language} dashboard is ${await pageWidth(page)} px wide`);
      await page.screenshot({ path: join(ARTIFACTS, `i18n-${language}-dashboard-phone.png`), fullPage: true });

      for (const [path, name, heading] of [
        [`/bridges/${bridgeId}`, "bridge", "Wohnzimmer und Küche"],
        [`/bridges/${bridgeId}/edit`, "bridge-form", messages.form.editTitle("Wohnzimmer und Küche")],
        ["/settings", "settings", messages.settings.title],
      ] as const) {
        await page.evaluate((hash) => {
          location.hash = hash;
        }, path);
        await settled(page);
        await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
        const width = await pageWidth(page);
        assert.ok(width <= 390, `${language} ${name} page is ${width} px wide`);
        await page.screenshot({ path: join(ARTIFACTS, `i18n-${language}-${name}-phone.png`), fullPage: true });
      }
      await context.close();
    });
  }

  it("prefers Home Assistant's frontend language over the browser's", async () => {
    const { page, context } = await openPhone("en-US", "/", { selectedLanguage: JSON.stringify("nl") });
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), "nl");
    await page.getByText("Gekoppelde controllers").first().waitFor();
    await context.close();
  });

  it("keeps the language chosen in Settings over reloads, and goes back to automatic", async () => {
    const { page, context } = await openPhone("en-US", "/settings", { selectedLanguage: JSON.stringify("fr") });
    await page.getByRole("heading", { name: "Paramètres", level: 1 }).waitFor();
    const picker = page.getByTestId("language");
    assert.equal(await page.getByRole("combobox", { name: "Langue" }).getAttribute("data-testid"), "language");
    assert.equal(await picker.inputValue(), "");
    await picker.selectOption("de");
    await page.getByRole("heading", { name: "Einstellungen", level: 1 }).waitFor();
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), LANGUAGE_KEY), "de");
    await page.reload();
    await page.getByRole("heading", { name: "Einstellungen", level: 1 }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "i18n-picker-phone.png") });
    await page.getByTestId("language").selectOption("");
    await page.getByRole("heading", { name: "Paramètres", level: 1 }).waitFor();
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), LANGUAGE_KEY), null);
    await context.close();
  });
});
