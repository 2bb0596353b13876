import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { freePort } from "../../lib/testing/processes.ts";
import { settled, unlabelledControls } from "./support/page-checks.ts";
import { ARTIFACTS, type PortalWorld, startPortalWorld } from "./support/portal-world.ts";

// Issue 21, item 7: adding a server (checked, save anyway, picker kept), brand colours kept with their contrast shown,
// bot settings as a form, audit rows by name. Screenshots: test-artifacts/ui/portal-checks-*.png.

/** Saves `test-artifacts/ui/portal-checks-<name>.png` once nothing is loading; scroll to what matters first. */
async function shot(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll(".loading").length === 0, undefined, { timeout: 10_000 });
  await page.evaluate(() => {
    const toasts = document.querySelector<HTMLElement>(".toasts");
    if (toasts) toasts.style.display = "none";
  });
  // The viewport, as a person sees it (the console's sticky bars would land mid-page in a full-page capture).
  await page.screenshot({ path: join(ARTIFACTS, `portal-checks-${name}.png`) });
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

/** Elements wider than a phone's viewport. */
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

describe("portal UI: checks on save, kept colours, bot settings form, audit names (headless Chromium)", {
  timeout: 180_000,
}, () => {
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

  it("checks a new server on save, offers Save anyway, marks it unchecked and keeps the server picker", async () => {
    const picker = desktop.getByTestId("server-picker");
    assert.equal(await picker.inputValue(), world.serverId, "the demo server is selected");

    await go(desktop, "/servers/new");
    await desktop.getByLabel("Name", { exact: true }).fill("Office homeserver");
    await desktop.getByLabel("Server name").fill("office.test");
    await desktop.getByLabel("Internal URL").fill(`http://127.0.0.1:${await freePort()}`);
    await desktop.getByLabel("Public URL").fill("https://matrix.office.test");
    await desktop.getByLabel("Admin access token").fill("syt_office_admin");
    await desktop.getByRole("button", { name: "Add server" }).click();
    await desktop.getByRole("button", { name: "Checking the homeserver…" }).waitFor();
    const refusal = desktop.getByTestId("error-message");
    await refusal.filter({ hasText: "The homeserver check failed" }).waitFor({ timeout: 15_000 });
    assert.match((await refusal.textContent()) ?? "", /Could not reach a Matrix homeserver at http:\/\/127\.0\.0\.1:\d+/);
    assert.equal(
      ((await world.admin.get("/api/admin/servers")).body.servers as { slug: string }[]).some(
        (s) => s.slug === "office-homeserver",
      ),
      false,
      "nothing saved",
    );
    await desktop.evaluate(() => window.scrollTo(0, 0));
    await shot(desktop, "server-check-failed-desktop");

    await desktop.getByRole("button", { name: "Save anyway (unchecked)" }).click();
    await desktop.getByRole("heading", { level: 1, name: "Office homeserver" }).waitFor();
    await desktop.getByTestId("server-unchecked").waitFor();
    await desktop.getByTestId("never-checked").waitFor();
    assert.equal(await picker.inputValue(), world.serverId, "the picker stays where it was");
    await shot(desktop, "server-unchecked-desktop");

    // A reachable server (the demo simulator under another name) passes the check; the picker stays put again.
    const hs = world.homeserver;
    await go(desktop, "/servers/new");
    await desktop.getByLabel("Name", { exact: true }).fill("Checked homeserver");
    await desktop.getByLabel("Server name").fill(hs.serverName);
    await desktop.getByLabel("Internal URL").fill(`http://localhost:${new URL(hs.url).port}`);
    await desktop.getByLabel("Public URL").fill("https://matrix.checked.test");
    await desktop.getByLabel("Admin access token").fill(hs.adminToken);
    await desktop.getByRole("button", { name: "Add server" }).click();
    await desktop.getByRole("heading", { level: 1, name: "Checked homeserver" }).waitFor();
    assert.equal(await desktop.getByTestId("server-unchecked").count(), 0);
    assert.match(
      (await desktop.locator(".card", { hasText: "Diagnostics" }).textContent()) ?? "",
      /Last run .*all checks passed/,
    );
    assert.equal(await picker.inputValue(), world.serverId);
    const options = await picker.locator("option").allTextContents();
    assert.ok(
      options.some((text) => text.startsWith("Checked homeserver")),
      "the new server is offered in the picker",
    );

    await go(desktop, "/servers");
    await desktop.locator('tr[data-server="office-homeserver"]').getByTestId("server-unchecked").waitFor();
    await shot(desktop, "servers-desktop");

    await go(phone, "/servers/new");
    await phone.getByLabel("Name", { exact: true }).fill("Phone check");
    await phone.getByLabel("Server name").fill("phone.test");
    await phone.getByLabel("Internal URL").fill(`http://127.0.0.1:${await freePort()}`);
    await phone.getByLabel("Public URL").fill("https://matrix.phone.test");
    await phone.getByLabel("Admin access token").fill("syt_phone");
    await phone.getByRole("button", { name: "Add server" }).click();
    await phone.getByTestId("save-anyway").waitFor({ timeout: 15_000 });
    assert.deepEqual(await overflowing(phone), []);
    await phone.evaluate(() => window.scrollTo(0, 0));
    await shot(phone, "server-check-failed-phone");
    await go(phone, "/servers");
    await shot(phone, "servers-phone");
  });

  it("keeps a chosen brand colour exactly and shows each contrast with its ratio and what it is measured against", async () => {
    await go(desktop, "/branding");
    await desktop.getByLabel("Profile name").fill("Pale");
    await desktop.getByRole("button", { name: "Create" }).click();
    await desktop.getByRole("heading", { name: "Pale" }).waitFor();
    const summary = desktop.getByTestId("contrast-summary");
    assert.equal(await summary.textContent(), "Every colour pair reaches the WCAG AA contrast.", "the default passes");
    await desktop.getByTestId("contrast-checks").scrollIntoViewIfNeeded();
    await shot(desktop, "branding-default-contrast-desktop");

    await desktop.getByLabel("Primary colour", { exact: true }).fill("#7fffd4");
    await summary.filter({ hasText: /below the WCAG AA contrast/ }).waitFor();
    const button = desktop.locator('[data-check="buttonOnCard"]');
    assert.equal(await button.getAttribute("data-pass"), "false");
    assert.match((await button.textContent()) ?? "", /#7fffd4 against the white card #ffffff.*1\.2:1.*needs 3\.0:1/);
    const links = desktop.locator('[data-check="linksOnCard"]');
    assert.match((await links.textContent()) ?? "", /Links are drawn in the text colour instead/);
    assert.equal(await desktop.getByLabel("Primary colour", { exact: true }).inputValue(), "#7fffd4", "kept as typed");
    const previewButton = desktop.getByTestId("branding-preview").locator(".su-submit").first();
    assert.equal(
      await previewButton.evaluate((el) => getComputedStyle(el).backgroundColor),
      "rgb(127, 255, 212)",
      "the page shows the colour as chosen",
    );
    await desktop.getByRole("button", { name: "Save draft" }).click();
    await desktop.getByText("Draft saved").waitFor();
    const profileId = (await desktop.evaluate(() => location.hash)).split("/")[2] ?? "";
    const stored = (await world.admin.get(`/api/admin/branding/${profileId}`)).body.profile;
    assert.equal(stored.primaryColor, "#7fffd4");
    await desktop.getByTestId("contrast-checks").scrollIntoViewIfNeeded();
    await shot(desktop, "branding-low-contrast-desktop");

    await go(phone, `/branding/${profileId}`);
    await phone.getByTestId("contrast-checks").scrollIntoViewIfNeeded();
    assert.deepEqual(await overflowing(phone), []);
    await shot(phone, "branding-low-contrast-phone");
  });

  it("edits bot settings in a form from the template's schema, with errors per field and the JSON for experts", async () => {
    await go(desktop, "/bots");
    await desktop.getByRole("button", { name: "Create a bot from FAQ responder" }).click();
    const form = desktop.getByTestId("bot-create-form");
    await form.getByRole("button", { name: "Add entry" }).click();
    const entry = form.locator('[data-entry="0"]');
    await entry.getByLabel("Keywords").fill("opening hours\nwhen open");
    await entry.locator('[data-setting="answer"]').getByText("Required").waitFor();
    const cooldown = form.getByLabel("Pause between answers");
    await cooldown.fill("99999");
    await form.locator('[data-setting="cooldownSeconds"] .field-error', { hasText: "Enter a number from 0 to 3600" }).waitFor();
    await form.getByTestId("bot-settings-form").scrollIntoViewIfNeeded();
    await shot(desktop, "bot-settings-errors-desktop");
    await form.getByRole("button", { name: "Create bot" }).click();
    assert.equal(await desktop.getByRole("heading", { level: 1, name: "FAQ responder" }).count(), 0, "not sent while invalid");

    await entry.getByLabel("Answer").fill("Monday to Friday, 9 to 5.");
    await cooldown.fill("120");
    assert.equal(await form.locator(".field-error").count(), 0);
    await form.getByRole("button", { name: "JSON (for experts)" }).click();
    const json = JSON.parse(await form.getByLabel("Settings (JSON)").inputValue());
    assert.deepEqual(json, {
      entries: [{ keywords: ["opening hours", "when open"], answer: "Monday to Friday, 9 to 5." }],
      replyInThread: true,
      cooldownSeconds: 120,
    });
    await form.getByLabel("Settings (JSON)").fill('{"entries": [], "cooldownSeconds": 30, "colour": "red"}');
    await form.getByTestId("bot-settings-problems").getByText("Not a setting of this template").waitFor();
    await form.getByLabel("Settings (JSON)").fill('{"entries": [], "cooldownSeconds": 30}');
    await form.getByRole("button", { name: "Form", exact: true }).click();
    assert.equal(await form.getByLabel("Pause between answers").inputValue(), "30", "the JSON shows in the form");
    await form.getByRole("button", { name: "JSON (for experts)" }).click();
    await form.getByLabel("Settings (JSON)").fill(JSON.stringify(json));
    await form.getByRole("button", { name: "Form", exact: true }).click();
    await form.getByRole("button", { name: "Create bot" }).click();
    await desktop.getByRole("heading", { level: 1, name: "FAQ responder" }).waitFor();
    const botId = (await desktop.evaluate(() => location.hash)).split("/")[2] ?? "";
    assert.deepEqual((await world.admin.get(`/api/admin/bots/${botId}`)).body.bot.config, json);
    await desktop.getByTestId("bot-settings-form").scrollIntoViewIfNeeded();
    assert.deepEqual(await unlabelledControls(desktop), []);
    await shot(desktop, "bot-settings-desktop");

    await go(phone, `/bots/${botId}`);
    await phone.getByTestId("bot-settings-form").scrollIntoViewIfNeeded();
    assert.deepEqual(await overflowing(phone), []);
    await shot(phone, "bot-settings-phone");
  });

  it("shows audit rows by name, ids in the tooltip, deleted ones by their last name, and failed logins", async () => {
    const wrong = await world.portal
      .client({ ip: "203.0.113.9" })
      .post("/api/auth/login", { email: "root@portal.test", password: "not-the-password" });
    assert.equal(wrong.status, 401);
    const office = ((await world.admin.get("/api/admin/servers")).body.servers as { id: string; slug: string }[]).find(
      (server) => server.slug === "office-homeserver",
    );
    assert.ok(office);
    assert.equal((await world.admin.delete(`/api/admin/servers/${office.id}`)).status, 200);

    await go(desktop, "/audit");
    const failed = desktop.locator('tr[data-action="auth.login.failed"]').first();
    await failed.waitFor();
    assert.match((await failed.textContent()) ?? "", /root@portal\.test.*Not signed in.*203\.0\.113\.9/s);
    const deleted = desktop.locator('tr[data-action="server.deleted"]').first();
    assert.match((await deleted.textContent()) ?? "", /Office homeserver \(deleted\)/);
    assert.equal(await deleted.locator(".target-name").getAttribute("title"), `Deleted; last known name shown. ID: ${office.id}`);
    const bot = desktop.locator('tr[data-action="bot.created"]').first();
    assert.match((await bot.textContent()) ?? "", /FAQ responder/);
    const shown = await desktop.locator("tbody").evaluate((el) => (el as HTMLElement).innerText);
    assert.doesNotMatch(shown, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/, "no UUID on show (details closed)");
    await shot(desktop, "audit-desktop");
    await go(phone, "/audit");
    await shot(phone, "audit-phone");
    assert.deepEqual(world.cspViolations, []);
    assert.deepEqual(world.strayRequests, []);
  });
});
