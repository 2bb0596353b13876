import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { settled, unlabelledControls } from "./support/page-checks.ts";
import { ARTIFACTS, type PortalWorld, startPortalWorld } from "./support/portal-world.ts";

// Issue 23, part 2: servers whose accounts MAS manages. The server form with the kind and MAS's client, the check on
// save, the tokens page with revoke/unrevoke, diagnostics, and the sign-up page's hand-off to MAS, at 1280 and 390 px.
// Screenshots: test-artifacts/ui/portal-mas-*.png.

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll(".loading").length === 0, undefined, { timeout: 10_000 });
  await page.evaluate(() => {
    const toasts = document.querySelector<HTMLElement>(".toasts");
    if (toasts) toasts.style.display = "none";
  });
  await page.screenshot({ path: join(ARTIFACTS, `portal-mas-${name}.png`) });
  await page.evaluate(() => document.querySelector<HTMLElement>(".toasts")?.style.removeProperty("display"));
}

async function go(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => {
    location.hash = h;
  }, hash);
  await settled(page);
}

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/admin`);
  await page.getByLabel("E-mail").fill("root@portal.test");
  await page.getByLabel("Password").fill("admin-password-Xy7!q");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
}

/** Elements wider than a phone's viewport (tables scroll on purpose). */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && box.right > width + 1 && !el.closest(".table, pre, .preview-frame, .nav, .code-view");
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 80));
  });
}

describe("portal UI: servers whose accounts MAS manages (headless Chromium)", { timeout: 180_000 }, () => {
  let world: PortalWorld;
  let desktop: Page;
  let phone: Page;

  before(async () => {
    world = await startPortalWorld();
    ({ page: desktop } = await world.newPage());
    ({ page: phone } = await world.newPage({ phone: true }));
    await signIn(desktop, world.portal.url);
    await signIn(phone, world.portal.url);
  });
  after(async () => {
    await world?.close();
  });

  /** Fills the new-server form for the demo's MAS pair under another name; `secret` may be wrong on purpose. */
  async function fillMasServer(page: Page, name: string, secret: string): Promise<void> {
    const { mas, homeserver } = world.masDemo;
    await go(page, "/servers/new");
    await page.getByTestId("server-kind").selectOption("mas");
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Server name").fill(homeserver.serverName);
    await page.getByLabel("Internal URL").fill(homeserver.url);
    await page.getByLabel("Public URL", { exact: true }).fill("https://matrix.mas.demo.local");
    await page.getByLabel("MAS URL", { exact: true }).fill(mas.url);
    await page.getByLabel("OAuth client ID").fill(mas.client.clientId);
    await page.getByLabel("OAuth client secret").fill(secret);
  }

  it("adds a MAS server: the kind's own fields, a refused client explained, then checked and saved", async () => {
    await fillMasServer(desktop, "Office MAS", "not-the-secret");
    assert.equal(await desktop.getByLabel("Admin access token").count(), 0, "a MAS server needs no Synapse admin token");
    assert.deepEqual(await unlabelledControls(desktop), []);
    await shot(desktop, "server-form-desktop");
    await desktop.getByRole("button", { name: "Add server" }).click();
    const refusal = desktop.getByTestId("error-message");
    await refusal.filter({ hasText: "The homeserver or MAS check failed" }).waitFor({ timeout: 15_000 });
    assert.match((await refusal.textContent()) ?? "", /MAS refused the portal's OAuth client \(invalid_client\)/);
    await desktop.getByTestId("save-anyway").waitFor();
    await desktop.evaluate(() => window.scrollTo(0, 0));
    await shot(desktop, "server-check-failed-desktop");

    await desktop.getByLabel("OAuth client secret").fill(world.masDemo.mas.client.clientSecret);
    await desktop.getByRole("button", { name: "Add server" }).click();
    await desktop.getByRole("heading", { level: 1, name: "Office MAS" }).waitFor({ timeout: 15_000 });
    await desktop.getByTestId("server-kind-mas").waitFor();
    const details = (await desktop.locator(".card", { hasText: "Details" }).textContent()) ?? "";
    assert.match(details, /Matrix Authentication Service \(MAS\)/);
    assert.ok(details.includes(world.masDemo.mas.url));
    assert.equal(details.includes(world.masDemo.mas.client.clientSecret), false);
    await desktop.getByRole("button", { name: "Run diagnostics" }).click();
    const result = desktop.getByTestId("diagnostics-result");
    await result.waitFor({ timeout: 15_000 });
    assert.equal(await result.getAttribute("data-ok"), "true");
    assert.match((await result.textContent()) ?? "", /MAS admin API reachable, OAuth client accepted/);
    assert.match((await desktop.getByTestId("detected-kind").textContent()) ?? "", /kind MAS fits/);
    await desktop.getByTestId("diagnostics-result").scrollIntoViewIfNeeded();
    await shot(desktop, "server-detail-desktop");

    await fillMasServer(phone, "Phone MAS", "wrong");
    assert.deepEqual(await overflowing(phone), []);
    await phone.getByTestId("server-kind").scrollIntoViewIfNeeded();
    await shot(phone, "server-form-phone");
    await phone.getByLabel("OAuth client secret").scrollIntoViewIfNeeded();
    await shot(phone, "server-form-mas-phone");
    await phone.getByRole("button", { name: "Add server" }).click();
    await phone.getByTestId("save-anyway").waitFor({ timeout: 15_000 });
    await phone.evaluate(() => window.scrollTo(0, 0));
    assert.deepEqual(await overflowing(phone), []);
    await shot(phone, "server-check-failed-phone");
    await go(phone, `/servers/${world.masDemo.serverId}`);
    await phone.getByRole("button", { name: "Run diagnostics" }).click();
    await phone.getByTestId("diagnostics-result").waitFor({ timeout: 15_000 });
    assert.deepEqual(await overflowing(phone), []);
    await shot(phone, "server-detail-phone");
  });

  it("manages MAS's tokens: create, revoke, unrevoke; no delete, labels kept", async () => {
    const masServerId = world.masDemo.serverId;
    await desktop.getByTestId("server-picker").selectOption(masServerId);
    await go(desktop, "/tokens");
    await desktop.getByText("held by its Matrix Authentication Service").waitFor();
    await desktop.getByRole("button", { name: "New token" }).click();
    const form = desktop.getByTestId("token-create-form");
    await form.getByLabel("Token", { exact: true }).fill("spring-mas");
    await form.getByLabel("Uses allowed").fill("5");
    await form.getByLabel("Label").fill("Spring newcomers");
    await form.getByRole("button", { name: "Create token" }).click();
    await desktop.getByTestId("token-created").waitFor();
    const row = desktop.locator('tr[data-token="spring-mas"]');
    assert.equal(world.masDemo.mas.tokens().find((t) => t.token === "spring-mas")?.usageLimit, 5, "created on MAS");
    assert.equal(await row.getByRole("button", { name: "Delete spring-mas" }).count(), 0, "MAS deletes no token");

    await row.getByRole("button", { name: "Revoke spring-mas" }).click();
    await desktop.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
    await row.getByRole("button", { name: "Unrevoke spring-mas" }).waitFor();
    assert.equal(await row.getAttribute("data-status"), "disabled");
    assert.equal((await row.getByTestId("token-status").textContent())?.trim(), "Revoked");
    assert.match((await row.textContent()) ?? "", /0 \/ 5/, "a revoked token keeps its limit");
    assert.equal(typeof world.masDemo.mas.tokens().find((t) => t.token === "spring-mas")?.revokedAt, "number");
    await shot(desktop, "tokens-revoked-desktop");

    await row.getByRole("button", { name: "Unrevoke spring-mas" }).click();
    await row.getByRole("button", { name: "Revoke spring-mas" }).waitFor();
    assert.equal(await row.getAttribute("data-status"), "valid");
    assert.equal(world.masDemo.mas.tokens().find((t) => t.token === "spring-mas")?.revokedAt, null);
    assert.deepEqual(await unlabelledControls(desktop), []);
    await shot(desktop, "tokens-desktop");

    await phone.getByTestId("server-picker").selectOption(masServerId);
    await go(phone, "/tokens");
    await phone.locator('tr[data-token="spring-mas"]').waitFor();
    assert.deepEqual(await overflowing(phone), []);
    await shot(phone, "tokens-phone");
  });

  it("the sign-up page checks the token, shows the branding, then hands the person to MAS with the token", async () => {
    const { mas } = world.masDemo;
    const visitor = (await world.newPage()).page;
    await visitor.goto(`${world.portal.url}/?server=demo-mas&token=demo-mas-welcome`);
    const next = visitor.getByTestId("mas-continue");
    await next.waitFor();
    await visitor.getByText("This token is valid.").waitFor();
    const link = next.getByRole("link", { name: "Continue to create your account" });
    assert.equal(await link.getAttribute("href"), `${mas.url}/register?token=demo-mas-welcome`);
    const [label, background] = await link.evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]);
    assert.notEqual(label, background, "the button's label is readable on it");
    assert.equal(await link.getAttribute("rel"), "noreferrer");
    assert.equal(mas.tokens().find((t) => t.token === "demo-mas-welcome")?.timesUsed, 0, "checking used nothing");
    assert.equal(await visitor.getByLabel("Password").count(), 0, "MAS, not the portal, asks for the password");
    assert.deepEqual(await unlabelledControls(visitor), []);
    await visitor.screenshot({ path: join(ARTIFACTS, "portal-mas-signup-valid-desktop.png") });

    await visitor.getByRole("textbox", { name: "Registration token" }).fill("no-such-token");
    await visitor.getByRole("button", { name: "Check token" }).click();
    await visitor.getByText("This token is not valid: it may be mistyped, expired, used up or revoked.").waitFor();
    assert.equal(await visitor.getByTestId("mas-continue").count(), 0);
    await visitor.screenshot({ path: join(ARTIFACTS, "portal-mas-signup-invalid-desktop.png") });

    const small = (await world.newPage({ phone: true })).page;
    await small.goto(`${world.portal.url}/?server=demo-mas&token=demo-mas-welcome`);
    await small.getByTestId("mas-continue").waitFor();
    assert.deepEqual(await overflowing(small), []);
    await small.screenshot({ path: join(ARTIFACTS, "portal-mas-signup-valid-phone.png") });

    // Following the link: MAS's page, where released MAS asks for the token again (the portal shows it to copy).
    const page = await fetch(`${mas.url}/register?token=demo-mas-welcome`).then((r) => r.text());
    assert.match(page, /Registration token/);
    assert.deepEqual(world.strayRequests, [], "the page itself calls nothing but the portal");
    assert.deepEqual(world.cspViolations, []);
  });

  it("the hand-off to MAS reads in the visitor's language and fits a phone (German, Polish)", async () => {
    for (const locale of ["de-DE", "pl-PL"]) {
      const { page } = await world.newPage({ phone: true, locale });
      await page.goto(`${world.portal.url}/?server=demo-mas&token=demo-mas-welcome`);
      const next = page.getByTestId("mas-continue");
      await next.waitFor();
      const text = await page.locator("main").innerText();
      for (const english of ["This token is valid.", "Continue to create your account", "Registration token"]) {
        assert.ok(!text.includes(english), `${locale}: "${english}" is translated`);
      }
      if (locale === "de-DE") {
        await page.getByText("Dieses Token ist gültig.").waitFor();
        assert.equal(await next.getByRole("link").innerText(), "Weiter zum Erstellen deines Kontos");
      }
      assert.deepEqual(await overflowing(page), [], `${locale}: nothing wider than the phone`);
      await page.screenshot({ path: join(ARTIFACTS, `portal-mas-signup-${locale}-phone.png`) });
    }
  });
});
