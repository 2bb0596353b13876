import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { LANGUAGES, type Language } from "../common/i18n.ts";
import { PORTAL_ADMIN_LOCALES } from "../portal/src/admin/i18n.ts";
import { LANGUAGE_KEY, PUBLIC_LOCALES } from "../portal/src/i18n.ts";
import { settled } from "./support/page-checks.ts";
import { ARTIFACTS, type PortalWorld, startPortalWorld } from "./support/portal-world.ts";

// Languages in the portal (issue 21, item 9). The public sign-up page follows the browser's language, a `?lang=` in
// its address outranks that (a link an admin hands out), and the footer's picker outranks both and is kept. Every
// language is photographed on a 390 px phone and a 1280 px window, the form filled in far enough to show its live
// messages; nothing may be wider than the window (long German words must wrap, not push the layout sideways). The
// admin console is photographed the same way in the languages it is translated into.

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
/** Every language the admin console ships besides English. */
const ADMIN_LANGUAGES = ["de", "fr", "nl", "es", "it", "pl", "pt-BR"] as const;
const SIZES = [
  { phone: true, suffix: "phone", width: 390 },
  { phone: false, suffix: "desktop", width: 1280 },
] as const;
const PASSWORD = "Correct-horse-battery-7";

/** Elements that end right of the window (sideways overflow), except where scrolling sideways is the design. */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll<HTMLElement>("body *")].filter((el) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.right > width + 1 && !el.closest(".table, pre, .preview-frame, .nav, .code-view");
    });
    const page = document.scrollingElement?.scrollWidth ?? 0;
    return [
      ...(page > width ? [`page is ${page} px wide`] : []),
      ...wide.map((el) => `${el.tagName.toLowerCase()}.${el.className} "${el.textContent?.slice(0, 40)}"`),
    ];
  });
}

/** Pairs of the admin top bar's controls that overlap (a crowded bar must wrap or shrink, never stack them). */
function topBarOverlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const items = [...document.querySelectorAll<HTMLElement>(".topbar > *, .topbar select")]
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 1 && box.height > 1);
    const overlaps: string[] = [];
    for (const [i, a] of items.entries()) {
      for (const b of items.slice(i + 1)) {
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        const x = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const y = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (x > 1 && y > 1) overlaps.push(`${a.el.className || a.el.tagName} × ${b.el.className || b.el.tagName}`);
      }
    }
    return overlaps;
  });
}

/** The screenshot, once nothing is loading; the admin console as its window shows it, the public page whole. */
async function shot(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll(".loading, .su-loading").length === 0);
  await page.screenshot({ path: join(ARTIFACTS, `portal-i18n-${name}.png`), fullPage: !name.includes("admin") });
}

describe("portal UI: languages (real portal, simulated homeserver, headless Chromium)", { timeout: 240_000 }, () => {
  let world: PortalWorld;

  before(async () => {
    world = await startPortalWorld();
  });
  after(async () => {
    assert.deepEqual(world?.strayRequests ?? [], []);
    assert.deepEqual(world?.cspViolations ?? [], []);
    await world?.close();
  });

  const lang = (page: Page) => page.evaluate(() => document.documentElement.lang);

  for (const [language, tag] of Object.entries(BROWSER_TAGS) as [Exclude<Language, "en">, string][]) {
    it(`sign-up page in ${LANGUAGES[language]}: follows a ${tag} browser, fits 390 px and 1280 px`, async () => {
      const P = (await PUBLIC_LOCALES[language]()).default;
      for (const size of SIZES) {
        const { page } = await world.newPage({ phone: size.phone, locale: tag });
        await page.goto(`${world.portal.url}/`);
        await page.getByRole("heading", { name: P.brandingDefaults.welcomeHeadline, level: 1 }).waitFor();
        assert.equal(await lang(page), language);
        assert.equal(await page.title(), P.brandingDefaults.appTitle);
        assert.equal(await page.getByTestId("language").inputValue(), language);
        await page.getByText(P.brandingDefaults.registrationText).waitFor();
        // Live messages under the fields: the longest texts the form shows while someone types.
        await page.getByLabel(P.form.username).fill("dana_scully");
        await page.getByTestId("field-username").getByText(P.username.available("@dana_scully:demo.local")).waitFor();
        await page.getByLabel(P.form.password, { exact: true }).fill("abc");
        await page.getByLabel(P.form.confirmPassword).focus();
        await page.getByTestId("field-password").getByText(P.password.tooShort(5)).waitFor();
        await page.getByLabel(P.form.token).fill("nope");
        await page.getByTestId("field-token").getByText(P.token.invalid).waitFor();
        assert.deepEqual(await overflowing(page), [], `${language} sign-up page at ${size.width} px`);
        await shot(page, `${language}-signup-${size.suffix}`);
        await page.context().close();
      }
    });
  }

  it("signs up in German: refusal and success page translated, the portal's own English detail marked as English", async () => {
    const P = (await PUBLIC_LOCALES.de()).default;
    const created = await world.admin.post(`/api/admin/tokens?serverId=${world.serverId}`, {
      token: "einladung",
      uses_allowed: 1,
    });
    assert.equal(created.status, 201);
    const { page } = await world.newPage({ phone: true, locale: "de-DE" });
    await page.goto(`${world.portal.url}/?token=einladung`);
    await page.getByTestId("field-token").getByText(P.token.valid).waitFor();
    await page.getByLabel(P.form.username).fill("jürgen");
    await page.getByTestId("field-username").getByText(P.username.characters).waitFor();
    await page.getByLabel(P.form.username).fill("juergen");
    await page.getByLabel(P.form.password, { exact: true }).fill(PASSWORD);
    await page.getByLabel(P.form.confirmPassword).fill(PASSWORD);
    await page.getByTestId("field-confirm").getByText(P.password.match).waitFor();
    await page.getByRole("button", { name: P.form.submit }).click();
    await page.getByRole("heading", { name: P.success.title, level: 1 }).waitFor();
    await page.getByText(P.success.step2("matrix.demo.local")).or(page.getByText(P.success.howTo)).first().waitFor();
    assert.deepEqual(await overflowing(page), []);
    await shot(page, "de-success-phone");

    // The token is used up now (its invite link would say only that: portal-ui-invites.test.ts). Typed by hand, the
    // refusal is German, the portal's sentence under it stays English and says so.
    await page.goto(`${world.portal.url}/`);
    await page.getByLabel(P.form.token).fill("einladung");
    await page.getByLabel(P.form.username).fill("petra");
    await page.getByLabel(P.form.password, { exact: true }).fill(PASSWORD);
    await page.getByLabel(P.form.confirmPassword).fill(PASSWORD);
    await page.getByRole("button", { name: P.form.submit }).click();
    const alert = page.getByTestId("signup-error");
    await alert.waitFor();
    assert.equal(await alert.locator("strong").textContent(), P.errors.M_UNAUTHORIZED);
    assert.equal(await alert.locator("span").getAttribute("lang"), "en");
    assert.match((await alert.locator("span").textContent()) ?? "", /no uses left/);
    await page.getByTestId("field-token").getByText(P.errors.M_UNAUTHORIZED).waitFor();
    await shot(page, "de-refused-phone");
    await page.context().close();
  });

  it("?lang= in the address outranks the browser's language; one the portal does not ship is ignored", async () => {
    const pl = (await PUBLIC_LOCALES.pl()).default;
    const { page } = await world.newPage({ phone: true, locale: "de-DE" });
    await page.goto(`${world.portal.url}/?lang=pl#token=demo-welcome`);
    await page.getByRole("heading", { name: pl.brandingDefaults.welcomeHeadline, level: 1 }).waitFor();
    assert.equal(await lang(page), "pl");
    assert.equal(await page.getByLabel(pl.form.token).inputValue(), "demo-welcome");
    await page.goto(`${world.portal.url}/?lang=pt_br`);
    await page.getByRole("heading", { name: "Boas-vindas", level: 1 }).waitFor();
    assert.equal(await lang(page), "pt-BR");
    await page.goto(`${world.portal.url}/?lang=xx`);
    await page.getByRole("heading", { name: "Willkommen", level: 1 }).waitFor();
    assert.equal(await lang(page), "de");
    await page.context().close();
  });

  it("the footer's picker outranks link and browser, keeps the choice and the rest of the address", async () => {
    const { page } = await world.newPage({ locale: "de-DE" });
    await page.goto(`${world.portal.url}/?lang=it&token=demo-welcome`);
    await page.getByRole("heading", { name: "Ti diamo il benvenuto", level: 1 }).waitFor();
    await page.getByRole("combobox", { name: "Lingua" }).selectOption("nl");
    await page.getByRole("heading", { name: "Welkom", level: 1 }).waitFor();
    assert.equal(await lang(page), "nl");
    // ?lang= is dropped; the token stays, moved from an older link's query into the fragment.
    assert.equal(new URL(page.url()).search, "");
    assert.equal(new URL(page.url()).hash, "#token=demo-welcome");
    assert.equal(await page.getByLabel("Registratietoken").inputValue(), "demo-welcome");
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), LANGUAGE_KEY), "nl");
    await page.reload();
    await page.getByRole("heading", { name: "Welkom", level: 1 }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "portal-i18n-picker-desktop.png") });
    // A link still wins over the stored choice: that is what the admin handed out.
    await page.goto(`${world.portal.url}/?lang=fr`);
    await page.getByRole("heading", { name: "Bienvenue", level: 1 }).waitFor();
    await page.context().close();
  });

  it("a custom branding text stays as written, marked with the profile's language; unchanged ones are translated", async () => {
    const profile = (await world.admin.post("/api/admin/branding", { name: "Verein" })).body.profile as { id: string };
    const saved = await world.admin.put(`/api/admin/branding/${profile.id}`, {
      welcomeHeadline: "Willkommen im Verein",
      locale: "de",
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const published = await world.admin.patch(`/api/admin/branding/${profile.id}`, { action: "publish" });
    assert.equal(published.status, 200, JSON.stringify(published.body));
    try {
      const fr = (await PUBLIC_LOCALES.fr()).default;
      const { page } = await world.newPage({ locale: "fr-FR" });
      await page.goto(`${world.portal.url}/`);
      const headline = page.getByRole("heading", { name: "Willkommen im Verein", level: 1 });
      await headline.waitFor();
      assert.equal(await headline.getAttribute("lang"), "de");
      assert.equal(await lang(page), "fr");
      await page.getByText(fr.brandingDefaults.registrationText).waitFor();
      assert.equal(await page.getByText(fr.brandingDefaults.registrationText).getAttribute("lang"), null);
      await page.context().close();
    } finally {
      await world.admin.delete(`/api/admin/branding/${profile.id}`);
    }
  });

  for (const language of ADMIN_LANGUAGES) {
    it(`admin console in ${LANGUAGES[language]}: follows the browser, fits 390 px and 1280 px`, async () => {
      const A = (await PORTAL_ADMIN_LOCALES[language]()).default;
      const profile = await world.admin.post("/api/admin/branding", { name: `Profil ${language}` });
      assert.equal(profile.status, 201, JSON.stringify(profile.body));
      const profileId = (profile.body as { profile: { id: string } }).profile.id;
      for (const size of SIZES) {
        const { page } = await world.newPage({ phone: size.phone, locale: BROWSER_TAGS[language] });
        await page.goto(`${world.portal.url}/admin`);
        await page.getByRole("heading", { name: A.login.title, level: 1 }).waitFor();
        assert.equal(await lang(page), language);
        assert.deepEqual(await overflowing(page), [], `${language} sign-in at ${size.width} px`);
        await shot(page, `${language}-admin-login-${size.suffix}`);
        await page.getByLabel(A.login.email).fill("root@portal.test");
        await page.getByLabel(A.login.password).fill("admin-password-Xy7!q");
        await page.getByRole("button", { name: A.login.submit }).click();
        await page.getByRole("heading", { name: A.dashboard.title, level: 1 }).waitFor();
        await settled(page);
        for (const [hash, name, heading] of [
          ["/", "dashboard", A.dashboard.title],
          ["/tokens", "tokens", A.tokens.title],
          [`/servers/${world.serverId}`, "server", null],
          ["/servers/new", "server-form", A.servers.add],
          ["/branding", "branding", A.branding.title],
          [`/branding/${profileId}`, "branding-editor", `Profil ${language}`],
          ["/integrations?tab=catalog", "catalog", A.integrations.title],
        ] as const) {
          await page.evaluate((h) => {
            location.hash = h;
          }, hash);
          await settled(page);
          if (heading) await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
          if (hash === "/tokens") await page.getByRole("button", { name: A.tokens.create }).click();
          assert.deepEqual(await overflowing(page), [], `${language} ${name} at ${size.width} px`);
          assert.deepEqual(await topBarOverlaps(page), [], `${language} top bar at ${size.width} px`);
          await shot(page, `${language}-admin-${name}-${size.suffix}`);
        }
        await page.context().close();
      }
      await world.admin.delete(`/api/admin/branding/${profileId}`);
    });
  }

  it("the admin top bar's picker switches the console and the sign-up page, and goes back to automatic", async () => {
    const de = (await PORTAL_ADMIN_LOCALES.de()).default;
    const { page } = await world.newPage({ locale: "de-DE" });
    await page.goto(`${world.portal.url}/admin`);
    await page.getByLabel(de.login.email).fill("root@portal.test");
    await page.getByLabel(de.login.password).fill("admin-password-Xy7!q");
    await page.getByRole("button", { name: de.login.submit }).click();
    await page.getByRole("heading", { name: de.dashboard.title, level: 1 }).waitFor();
    const picker = page.getByRole("combobox", { name: "Sprache" });
    assert.equal(await picker.inputValue(), "");
    assert.equal(await picker.locator("option").first().textContent(), "Automatisch (Deutsch)");
    await picker.selectOption("fr");
    await page.getByRole("heading", { name: "Tableau de bord", level: 1 }).waitFor();
    assert.equal(await lang(page), "fr");
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), LANGUAGE_KEY), "fr");
    await page.screenshot({ path: join(ARTIFACTS, "portal-i18n-admin-picker-desktop.png") });
    await page.goto(`${world.portal.url}/`);
    await page.getByRole("heading", { name: "Bienvenue", level: 1 }).waitFor();
    await page.goto(`${world.portal.url}/admin`);
    await page.getByRole("combobox", { name: "Langue" }).selectOption("");
    await page.getByRole("heading", { name: de.dashboard.title, level: 1 }).waitFor();
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), LANGUAGE_KEY), null);
    await page.context().close();
  });
});
