import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { settled, unlabelledControls } from "./support/page-checks.ts";
import { ARTIFACTS, type PortalWorld, paintPng, startPortalWorld } from "./support/portal-world.ts";

const PASSWORD = "Correct-horse-battery-7";

/** Elements wider than the viewport (horizontal overflow on a phone). */
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

/** WCAG contrast of an element's text colour on its background colour (both computed, opaque). */
async function textContrast(page: Page, selector: string): Promise<number> {
  // The colours are read in the page, the ratio computed here (functions declared inside evaluate() would be renamed).
  const [fg, bg] = await page
    .locator(selector)
    .first()
    .evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]);
  const luminance = (css: string) => {
    const [r = 0, g = 0, b = 0] = (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => Number(v) / 255);
    const lin = (s: number) => (s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const [hi, lo] = [luminance(fg ?? ""), luminance(bg ?? "")].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * Saves `test-artifacts/ui/portal-<name>.png` once nothing is loading. The public page is taken whole; the admin
 * console as the viewport shows it (its sticky bars would land mid-page in a full-page capture).
 */
async function shot(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll(".loading, .su-loading").length === 0, undefined, {
    timeout: 10_000,
  });
  const admin = name.startsWith("admin-");
  // Toasts are asserted where they matter; in the pictures they would only hide the page. Hidden through the CSSOM:
  // the portal's CSP (rightly) refuses an injected <style>.
  await page.evaluate((top) => {
    if (top) window.scrollTo(0, 0);
    const toasts = document.querySelector<HTMLElement>(".toasts");
    if (toasts) toasts.style.display = "none";
  }, admin);
  await page.screenshot({ path: join(ARTIFACTS, `portal-${name}.png`), fullPage: !admin });
  await page.evaluate(() => document.querySelector<HTMLElement>(".toasts")?.style.removeProperty("display"));
}

/** The admin console at `hash` (e.g. `/tokens`), once its heading is there and nothing is loading. */
async function adminGo(page: Page, hash: string): Promise<void> {
  // The same hash again reloads, so the page shows what changed behind its back (e.g. through the API).
  const same = await page.evaluate((h) => location.hash === `#${h}`, hash);
  if (same) await page.reload();
  else
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

describe("portal UI: sign-up page and admin console (real portal, simulated homeserver, headless Chromium)", {
  timeout: 120_000,
}, () => {
  let world: PortalWorld;
  let admin: Page;
  let phoneAdmin: Page;
  /** Records the tests create through the UI, for the page tour at the end. */
  const ids = { profile: "", bot: "", integration: "" };

  before(async () => {
    world = await startPortalWorld();
    ({ page: admin } = await world.newPage({ clipboard: true }));
    ({ page: phoneAdmin } = await world.newPage({ phone: true }));
  });
  after(async () => {
    await world?.close();
  });

  it("signs the admin in, labels demo mode and shows the dashboard statistics", async () => {
    await admin.goto(`${world.portal.url}/admin`);
    await admin.getByRole("heading", { name: "Sign in" }).waitFor();
    await admin.getByTestId("demo-badge").waitFor();
    await shot(admin, "admin-login-desktop");
    // A wrong password is refused visibly.
    await admin.getByLabel("E-mail").fill("root@portal.test");
    await admin.getByLabel("Password").fill("wrong-password");
    await admin.getByRole("button", { name: "Sign in" }).click();
    await admin.getByTestId("error-message").filter({ hasText: "Invalid e-mail or password" }).waitFor();

    await signIn(admin, world.portal.url);
    assert.equal(await admin.getByTestId("demo-badge").textContent(), "DEMO");
    const stats = (await world.admin.get(`/api/admin/stats?serverId=${world.serverId}`)).body;
    await admin
      .locator('[data-stat="totalTokens"] .stat-value')
      .filter({ hasText: String(stats.totalTokens) })
      .waitFor();
    assert.equal(await admin.locator('[data-stat="validTokens"] .stat-value').textContent(), String(stats.validTokens));
    assert.deepEqual(await unlabelledControls(admin), []);
    await signIn(phoneAdmin, world.portal.url);
  });

  it("registers on the public page with an invite link copied from the admin UI; the account exists on the homeserver", async () => {
    await adminGo(admin, "/tokens");
    await admin.getByRole("button", { name: "New token" }).click();
    const form = admin.getByTestId("token-create-form");
    await form.getByRole("button", { name: "Generate" }).click();
    const token = await form.getByLabel("Token", { exact: true }).inputValue();
    assert.match(token, /^[A-Za-z0-9]{16}$/);
    await form.getByLabel("Uses allowed").fill("1");
    await form.getByLabel("Label").fill("Invitation for Dana");
    await form.getByRole("button", { name: "Create token" }).click();
    await admin.getByTestId("token-created").waitFor();
    const row = admin.locator(`tr[data-token="${token}"]`);
    assert.equal(await row.getByTestId("token-status").textContent(), "Valid");
    await shot(admin, "admin-token-created-desktop");

    await row.getByTestId("copy-invite").click();
    await row.getByTestId("copy-invite").filter({ hasText: "Copied" }).waitFor();
    const link = await admin.evaluate(() => navigator.clipboard.readText());
    assert.equal(link, `${world.portal.url}/?server=demo#token=${token}`, "the token rides in the fragment");

    const { page } = await world.newPage();
    await page.goto(link);
    await page.getByRole("heading", { name: "Welcome" }).waitFor();
    assert.equal(await page.getByLabel("Registration token").inputValue(), token);
    await page.getByTestId("field-token").getByText("This token is valid.").waitFor();
    await page.getByTestId("demo-badge").waitFor();
    await page.getByLabel("Username").fill("Dana");
    await page.getByTestId("field-username").getByText("@dana:demo.local is available").waitFor();
    await page.getByLabel("Display name").fill("Dana Scully");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page
      .getByTestId("field-password")
      .getByText(/Strength: (Good|Strong)/)
      .waitFor();
    await page.getByLabel("Confirm password").fill(PASSWORD);
    await page.getByTestId("field-confirm").getByText("The passwords match.").waitFor();
    assert.deepEqual(await unlabelledControls(page), []);
    await shot(page, "signup-filled-desktop");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByTestId("signup-success").waitFor();
    assert.equal(await page.getByTestId("matrix-id").textContent(), "@dana:demo.local");
    assert.ok(
      world.homeserver.users().some((user) => user.userId === "@dana:demo.local"),
      "the account exists on the homeserver",
    );
    await page.getByRole("link", { name: /Element Web/ }).waitFor();
    await shot(page, "signup-success-desktop");

    // The single use is spent: the admin UI says so.
    await admin.reload();
    await admin.locator(`tr[data-token="${token}"]`).getByTestId("token-status").filter({ hasText: "Used up" }).waitFor();
  });

  it("refuses on the public page a token disabled in the admin UI, with the reason", async () => {
    const created = await world.admin.post(`/api/admin/tokens?serverId=${world.serverId}`, {
      token: "ui-blocked",
      uses_allowed: 5,
    });
    assert.equal(created.status, 201);
    await adminGo(admin, "/tokens");
    const row = admin.locator('tr[data-token="ui-blocked"]');
    await row.getByRole("button", { name: "Disable ui-blocked" }).click();
    await admin.getByRole("dialog").getByRole("button", { name: "Disable" }).click();
    await row.getByTestId("token-status").filter({ hasText: "Disabled" }).waitFor();

    // Typed by hand (an invite link of it shows only that it is withdrawn: portal-ui-invites.test.ts).
    const { page } = await world.newPage();
    await page.goto(`${world.portal.url}/`);
    await page.getByLabel("Registration token").fill("ui-blocked");
    await page.getByTestId("field-token").getByText("This token has been disabled.").waitFor();
    await page.getByLabel("Username").fill("mallory");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    const alert = page.getByTestId("signup-error");
    await alert.waitFor();
    assert.equal(await alert.getAttribute("data-code"), "M_UNAUTHORIZED");
    assert.match(
      (await alert.textContent()) ?? "",
      /The registration token was not accepted\..*This registration token has been disabled\./,
    );
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute("name")),
      "token",
      "focus moves to the token field",
    );
    assert.ok(!world.homeserver.users().some((user) => user.userId === "@mallory:demo.local"));
    await shot(page, "signup-refused-desktop");
  });

  it("publishes branding in the admin UI (live preview, logo and hero upload) and the public page shows it", async () => {
    await adminGo(admin, "/branding");
    await admin.getByLabel("Profile name").fill("Acme");
    await admin.getByRole("button", { name: "Create" }).click();
    await admin.getByRole("heading", { name: "Acme" }).waitFor();
    await admin.getByLabel("Site title").fill("Acme Chat");
    await admin.getByLabel("Headline").fill("Join the Acme community");
    await admin.getByLabel("Introduction").fill("Ask your team lead for an invitation code, then pick a username.");
    await admin.getByLabel("Primary colour", { exact: true }).fill("#7b2cbf");
    await admin.getByLabel("Split").check();
    await admin.getByLabel("Privacy policy URL").fill("https://acme.example/privacy");
    const preview = admin.getByTestId("branding-preview");
    await preview.getByText("Join the Acme community").waitFor();
    assert.equal(await preview.locator(".su").getAttribute("data-layout"), "split");
    const logo = paintPng(96, 96, (x, y) => ((x - 48) ** 2 + (y - 48) ** 2 < 44 ** 2 ? [123, 44, 191, 255] : [0, 0, 0, 0]));
    await admin.getByLabel("Upload the logo").setInputFiles({ name: "acme.png", mimeType: "image/png", buffer: logo });
    await admin.locator('[data-purpose="logo"]').getByText("acme.png").waitFor();
    const hero = paintPng(320, 200, (x, y) => [40 + Math.round((x / 320) * 80), 20 + Math.round((y / 200) * 40), 110, 255]);
    await admin.getByLabel("Upload the hero picture").setInputFiles({ name: "hero.png", mimeType: "image/png", buffer: hero });
    await admin.locator('[data-purpose="hero"]').getByText("hero.png").waitFor();
    // An SVG is refused, and the refusal is shown.
    await admin.getByLabel("Upload the favicon").setInputFiles({
      name: "x.svg",
      mimeType: "image/svg+xml",
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    });
    await admin.getByTestId("toast-error").filter({ hasText: /SVG/ }).waitFor();
    await preview.locator(".su-logo").waitFor();
    await shot(admin, "admin-branding-editor-desktop");
    ids.profile = (await admin.evaluate(() => location.hash)).split("/")[2] ?? "";
    await admin.getByRole("button", { name: "Publish" }).click();
    await admin.getByText("Published: version 1 is live").waitFor();

    for (const [name, options] of [
      ["signup-desktop-light", { colorScheme: "light" as const }],
      ["signup-desktop-dark", { colorScheme: "dark" as const }],
      ["signup-phone-light", { colorScheme: "light" as const, phone: true }],
      ["signup-phone-dark", { colorScheme: "dark" as const, phone: true }],
    ] as const) {
      const { page } = await world.newPage(options);
      await page.goto(world.portal.url);
      await page.getByRole("heading", { name: "Join the Acme community" }).waitFor();
      assert.equal(await page.title(), "Acme Chat");
      assert.equal(await page.locator(".su").getAttribute("data-layout"), "split");
      await page.waitForFunction(() => (document.querySelector(".su-logo") as HTMLImageElement | null)?.naturalWidth === 96);
      assert.ok((await textContrast(page, ".su-submit")) >= 4.5, "the button label reads on the brand colour");
      assert.equal(
        await page.getByRole("link", { name: "Privacy", exact: true }).getAttribute("href"),
        "https://acme.example/privacy",
      );
      if (options.phone === true) assert.deepEqual(await overflowing(page), []);
      await shot(page, name);
    }
  });

  it("runs server diagnostics, shows each check, and shows a refused server form", async () => {
    await adminGo(admin, "/servers");
    await admin.getByRole("link", { name: "Demo homeserver (simulated)" }).click();
    await admin.getByRole("heading", { name: "Demo homeserver (simulated)" }).waitFor();
    await admin.getByRole("button", { name: "Run diagnostics" }).click();
    const result = admin.getByTestId("diagnostics-result");
    await result.waitFor();
    assert.equal(await result.getAttribute("data-ok"), "true");
    assert.equal(await result.locator('.check-row[data-state="pass"]').count(), 8);
    await shot(admin, "admin-server-diagnostics-desktop");

    await adminGo(admin, "/servers/new");
    await admin.getByLabel("Name", { exact: true }).fill("Second");
    await admin.getByLabel("Slug").fill("demo");
    await admin.getByLabel("Server name").fill("second.test");
    await admin.getByLabel("Internal URL").fill("http://127.0.0.1:9");
    await admin.getByLabel("Public URL").fill("https://matrix.second.test");
    await admin.getByLabel("Admin access token").fill("secret-token");
    await admin.getByRole("button", { name: "Add server" }).click();
    await admin.getByTestId("error-message").filter({ hasText: /slug/i }).waitFor();
    await shot(admin, "admin-server-form-error-desktop");
  });

  it("asks for the admin token when an edit moves the internal URL to another host, and moves with it", async () => {
    const hs = world.homeserver;
    const created = await world.admin.post("/api/admin/servers", {
      name: "Movable",
      slug: "movable",
      serverName: hs.serverName,
      internalUrl: hs.url,
      publicUrl: "https://matrix.movable.test",
      adminToken: hs.adminToken,
    });
    assert.equal(created.status, 201, created.text);
    const id = created.body.server.id as string;
    try {
      await adminGo(admin, `/servers/${id}/edit`);
      const tokenField = admin.getByLabel("Admin access token for the new URL");
      assert.equal(await tokenField.count(), 0, "no token field while the URL stays on its host");
      // The same simulator under another name: another origin for the portal, so the stored token must not follow.
      const moved = `http://localhost:${new URL(hs.url).port}`;
      await admin.getByLabel("Internal URL").fill(moved);
      await tokenField.waitFor();
      await admin.getByRole("button", { name: "Save" }).click();
      await admin.locator(".field-error", { hasText: "Required" }).waitFor();
      assert.equal((await world.admin.get(`/api/admin/servers/${id}`)).body.server.internalUrl, hs.url, "nothing saved");

      await tokenField.fill(hs.adminToken);
      await admin.getByRole("button", { name: "Save" }).click();
      await admin.getByRole("heading", { name: "Movable" }).waitFor();
      assert.equal((await world.admin.get(`/api/admin/servers/${id}`)).body.server.internalUrl, moved);
      assert.equal((await world.admin.get(`/api/admin/tokens?serverId=${id}`)).status, 200, "the token moved along");
    } finally {
      await world.admin.put(`/api/admin/servers/${id}`, { internalUrl: hs.url, adminToken: hs.adminToken });
      await world.admin.delete(`/api/admin/servers/${id}`);
    }
  });

  it("creates a bot from a template, installs an integration and filters the audit log", async () => {
    await adminGo(admin, "/bots");
    await admin.getByRole("button", { name: "Create a bot from Welcome bot" }).click();
    await admin.getByRole("button", { name: "Create bot" }).click();
    await admin.getByRole("heading", { level: 1, name: "Welcome bot" }).waitFor();
    await admin.getByLabel("Room ID").fill("!lobby:demo.local");
    await admin.getByRole("button", { name: "Add room" }).click();
    await admin.getByTestId("bot-rooms").getByText("!lobby:demo.local").waitFor();
    await admin.getByTestId("bot-features").getByLabel("Keyword triggers").check();
    await admin.waitForFunction(() => !document.querySelector('[data-testid="bot-features"] input:disabled'));
    ids.bot = (await admin.evaluate(() => location.hash)).split("/")[2] ?? "";

    await adminGo(admin, "/integrations?tab=catalog");
    await admin.getByRole("button", { name: /^Install Draupnir/ }).waitFor();
    await admin.getByLabel("Type").selectOption("bridge");
    // A bot drops out of the list filtered to bridges; the bridges stay.
    await admin.getByRole("button", { name: /^Install Draupnir/ }).waitFor({ state: "detached" });
    await admin.getByRole("button", { name: /^Install WhatsApp bridge/ }).waitFor();
    await admin.getByRole("button", { name: /^Install WhatsApp bridge/ }).click();
    await admin.getByTestId("generated-files").waitFor();
    await admin.getByRole("button", { name: "Check health" }).click();
    await admin.getByTestId("health-result").waitFor();
    ids.integration = (await admin.evaluate(() => location.hash)).split("/")[2] ?? "";
    const files = admin.getByTestId("generated-files");
    const names = await files.getByRole("tab").allTextContents();
    assert.ok(names.includes("registration.yaml"), names.join());
    await files.getByRole("tab", { name: "registration.yaml" }).click();
    assert.match((await files.locator(".code-view").textContent()) ?? "", /as_token:.*<secret:as_token>/);
    await files.scrollIntoViewIfNeeded();
    await admin.evaluate(() => document.querySelector<HTMLElement>(".toasts")?.style.setProperty("display", "none"));
    await admin.screenshot({ path: join(ARTIFACTS, "portal-admin-integration-files-desktop.png") });
    await admin.evaluate(() => document.querySelector<HTMLElement>(".toasts")?.style.removeProperty("display"));

    await adminGo(admin, "/audit");
    await admin.getByLabel("Action").selectOption("token");
    // The filtered page replaces the full one: wait until only token actions are listed.
    await admin.waitForFunction(() => {
      const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="audit-table"] tbody tr')];
      return rows.length > 0 && rows.every((row) => row.dataset.action?.startsWith("token."));
    });
    await admin.locator('tr[data-action="token.disabled"]').waitFor();
    const actions = await admin.locator("tbody tr").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-action")));
    assert.ok(actions.length > 0 && actions.every((action) => action?.startsWith("token.")), actions.join());
    await shot(admin, "admin-audit-filtered-desktop");
  });

  it("shows the success page, branded, on a phone in light and dark", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const { page } = await world.newPage({ phone: true, colorScheme: scheme });
      await page.goto(`${world.portal.url}/?token=demo-welcome`);
      await page.getByTestId("field-token").getByText("This token is valid.").waitFor();
      await page.getByLabel("Username").fill(`phone-${scheme}`);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Confirm password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByTestId("signup-success").waitFor();
      assert.equal(await page.getByTestId("matrix-id").textContent(), `@phone-${scheme}:demo.local`);
      assert.equal(await page.evaluate(() => document.activeElement?.id), "su-success-title", "the result is announced");
      assert.deepEqual(await overflowing(page), []);
      await shot(page, `signup-success-phone-${scheme}`);
    }
  });

  it("captures every admin page at desktop and phone width, without overflow on the phone", async () => {
    const pages: [string, string][] = [
      ["dashboard", "/"],
      ["servers", "/servers"],
      ["server", `/servers/${world.serverId}`],
      ["server-form", `/servers/${world.serverId}/edit`],
      ["tokens", "/tokens"],
      ["branding", "/branding"],
      ["branding-editor", `/branding/${ids.profile}`],
      ["bots", "/bots"],
      ["bot", `/bots/${ids.bot}`],
      ["integrations", "/integrations"],
      ["integrations-catalog", "/integrations?tab=catalog"],
      ["integration", `/integrations/${ids.integration}`],
      ["audit", "/audit"],
    ];
    for (const [name, hash] of pages) {
      for (const [page, width] of [
        [admin, "desktop"],
        [phoneAdmin, "phone"],
      ] as const) {
        await adminGo(page, hash);
        await shot(page, `admin-${name}-${width}`);
        if (width === "phone") assert.deepEqual(await overflowing(page), [], `${name} on a phone`);
        assert.deepEqual(await unlabelledControls(page), [], name);
      }
    }
    const { page: dark } = await world.newPage({ colorScheme: "dark" });
    await signIn(dark, world.portal.url);
    await shot(dark, "admin-dashboard-desktop-dark");
    const { page: phoneLogin } = await world.newPage({ phone: true });
    await phoneLogin.goto(`${world.portal.url}/admin`);
    await phoneLogin.getByRole("heading", { name: "Sign in" }).waitFor();
    await shot(phoneLogin, "admin-login-phone");
    assert.deepEqual(world.strayRequests, []);
    assert.deepEqual(world.cspViolations, []);
  });
});
