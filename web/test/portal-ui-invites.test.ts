import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Locator, Page } from "playwright-core";
import { until } from "../../lib/testing/polling.ts";
import { decodePng, readQr, readQrPng, readQrSvg } from "../../lib/testing/qr-reader.ts";
import { settled, unlabelledControls } from "./support/page-checks.ts";
import { ARTIFACTS, type PortalWorld, startPortalWorld } from "./support/portal-world.ts";

// Issue 23 part 1 in Chromium: a token's invite page (link, on-screen QR, SVG and PNG downloads read back by a QR
// reader, print view), a batch as a printed sheet and a CSV, and the sign-up page opened from invites in every state,
// at 1280 px and on a 390 px phone. Screenshots: test-artifacts/ui/portal-invite-*.png.

const PASSWORD = "Correct-horse-battery-7";

async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll(".loading, .su-loading").length === 0, undefined, {
    timeout: 10_000,
  });
  await page.evaluate(() => {
    const toasts = document.querySelector<HTMLElement>(".toasts");
    if (toasts) toasts.style.display = "none";
  });
  await page.screenshot({ path: join(ARTIFACTS, `portal-invite-${name}.png`), fullPage });
  await page.evaluate(() => document.querySelector<HTMLElement>(".toasts")?.style.removeProperty("display"));
}

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/admin`);
  await page.getByLabel("E-mail").fill("root@portal.test");
  await page.getByLabel("Password").fill("admin-password-Xy7!q");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
}

async function adminGo(page: Page, hash: string): Promise<void> {
  const same = await page.evaluate((h) => location.hash === `#${h}`, hash);
  if (same) await page.reload();
  else
    await page.evaluate((h) => {
      location.hash = h;
    }, hash);
  await settled(page);
}

/** What a phone's camera would read off an element on screen: a screenshot of it, through the QR reader. */
async function scan(element: Locator): Promise<string | null> {
  return readQr(decodePng(await element.screenshot()));
}

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  return { name: download.suggestedFilename(), bytes: await readFile((await download.path()) as string) };
}

/** Elements wider than the viewport (horizontal overflow on a phone). */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && box.right > width + 1 && !el.closest(".table, pre, .nav");
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 80));
  });
}

describe("portal UI: invite links, QR codes, printed sheets and the invite page (headless Chromium)", {
  timeout: 240_000,
}, () => {
  let world: PortalWorld;
  let admin: Page;
  let phoneAdmin: Page;
  const tokensPath = () => `/api/admin/tokens?serverId=${world.serverId}`;
  const linkOf = (token: string) => `${world.portal.url}/?server=demo#token=${token}`;

  before(async () => {
    world = await startPortalWorld();
    ({ page: admin } = await world.newPage({ clipboard: true }));
    ({ page: phoneAdmin } = await world.newPage({ phone: true }));
    await signIn(admin, world.portal.url);
    await signIn(phoneAdmin, world.portal.url);
  });
  after(async () => {
    await world?.close();
  });

  it("shows a token's invite link and QR code; copy, SVG and PNG all read back to the link; prints only the card", async () => {
    const made = await world.admin.post(tokensPath(), { token: "inv-dana", uses_allowed: 1, label: "Dana" });
    assert.equal(made.status, 201);
    const link = linkOf("inv-dana");

    await adminGo(admin, "/tokens");
    await admin.locator('tr[data-token="inv-dana"]').getByRole("link", { name: "Invite link and QR code of inv-dana" }).click();
    await admin.getByRole("heading", { level: 1, name: "Invitation inv-dana" }).waitFor();
    await admin.getByTestId("invite-status").filter({ hasText: "Valid" }).waitFor();
    assert.equal(await admin.getByTestId("invite-link").textContent(), link);
    assert.match(
      (await admin.getByTestId("local-link-warning").textContent()) ?? "",
      /uses 127\.0\.0\.1:\d+, the address you opened this console with/,
      "a link only this network can open is flagged",
    );
    assert.equal(await scan(admin.locator(".invite-card-qr")), link, "the code on screen scans to the link");
    assert.match((await admin.getByTestId("invite-card").textContent()) ?? "", /Scan to create your account.*on demo\.local/);

    await admin.getByTestId("copy-invite-link").click();
    await admin.getByTestId("copy-invite-link").filter({ hasText: "Copied" }).waitFor();
    assert.equal(await admin.evaluate(() => navigator.clipboard.readText()), link);

    const svg = await downloaded(admin, () => admin.getByTestId("download-svg").click());
    assert.equal(svg.name, "invite-inv-dana.svg");
    assert.equal(readQrSvg(svg.bytes.toString("utf8")), link, "the SVG's modules read back to the link");
    // And as a browser draws the file: rasterised by Chromium, then read like a camera would.
    const { page: viewer } = await world.newPage();
    await viewer.setContent(
      `<body style="margin:0;background:#fff"><img id="qr" width="400" height="400" src="data:image/svg+xml;base64,${svg.bytes.toString("base64")}"></body>`,
    );
    await viewer.locator("#qr").evaluate((img: HTMLImageElement) => img.decode());
    assert.equal(await scan(viewer.locator("#qr")), link, "the SVG as Chromium renders it scans to the link");

    const png = await downloaded(admin, () => admin.getByTestId("download-png").click());
    assert.equal(png.name, "invite-inv-dana.png");
    assert.equal(readQrPng(png.bytes), link, "the PNG reads back to the link");
    assert.ok(decodePng(png.bytes).width >= 600, "large enough to print");

    await admin.evaluate(() => window.scrollTo(0, 0));
    await shot(admin, "page-desktop");
    await admin.emulateMedia({ media: "print" });
    assert.equal(await admin.locator(".topbar").isVisible(), false, "no console chrome on paper");
    assert.equal(await admin.getByTestId("invite-link").isVisible(), false);
    assert.equal(await admin.getByTestId("invite-card").isVisible(), true);
    await shot(admin, "page-print", true);
    await admin.emulateMedia({ media: "screen" });
    assert.deepEqual(await unlabelledControls(admin), []);

    await adminGo(phoneAdmin, "/tokens/inv-dana/invite");
    await phoneAdmin.getByTestId("invite-card").waitFor();
    assert.deepEqual(await overflowing(phoneAdmin), []);
    assert.equal(await scan(phoneAdmin.locator(".invite-card-qr")), link);
    await shot(phoneAdmin, "page-phone", true);

    // A token that can no longer be used says so on its invite page.
    await world.admin.patch(`/api/admin/tokens/inv-dana?serverId=${world.serverId}`);
    await adminGo(admin, "/tokens/inv-dana/invite");
    await admin.getByTestId("invite-not-usable").filter({ hasText: "(Disabled)" }).waitFor();
  });

  it("makes a batch in the console, shows it as a sheet of cards that scan, and downloads the CSV", async () => {
    await adminGo(admin, "/tokens");
    await admin.getByRole("button", { name: "Batch of invitations" }).click();
    const form = admin.getByTestId("token-batch-form");
    await form.getByLabel("How many").fill("12");
    await form.getByRole("button", { name: "Create 12 invitations" }).click();
    await form.getByText("A label is required").waitFor();
    await form.getByLabel("Label").fill("Spring fair");
    await form.getByLabel("Note").fill("table 3");
    await form.getByRole("button", { name: "Create 12 invitations" }).click();
    await admin.getByRole("heading", { level: 1, name: "Invitations “Spring fair”" }).waitFor();
    const cards = admin.getByTestId("invite-sheet").getByTestId("invite-card");
    await until("12 cards", async () => (await cards.count()) === 12);
    assert.equal(await admin.getByTestId("sheet-count").textContent(), "12 invitations");
    const tokens = await cards.evaluateAll((all) => all.map((card) => card.getAttribute("data-token") ?? ""));
    for (const token of tokens) assert.match(token, /^[A-HJ-NP-Za-km-z2-9]{12}$/);
    const first = tokens[0] as string;
    assert.equal(await scan(cards.first().locator(".invite-card-qr")), linkOf(first), "a card scans to its own link");
    assert.equal(await scan(cards.last().locator(".invite-card-qr")), linkOf(tokens[11] as string));

    const csv = await downloaded(admin, () => admin.getByTestId("download-csv").click());
    assert.equal(csv.name, "Spring-fair.csv");
    const lines = csv.bytes
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    assert.equal(lines[0], "token,invite_link,label,note,status,uses_allowed,used,expires");
    assert.deepEqual(
      lines.slice(1).map((line) => line.split(",")),
      tokens.map((token) => [token, linkOf(token), "Spring fair", "table 3", "Valid", "1", "0", ""]),
    );

    await shot(admin, "sheet-desktop");
    await admin.emulateMedia({ media: "print" });
    assert.equal(await admin.locator(".sheet-toolbar").isVisible(), false);
    await shot(admin, "sheet-print", true);
    // As printing lays it out on A4 (look at it: pdftoppm -png portal-invite-sheet.pdf).
    await admin.pdf({ path: join(ARTIFACTS, "portal-invite-sheet.pdf"), format: "A4" });
    await admin.emulateMedia({ media: "screen" });

    // One card is used: the sheet leaves it out unless asked, and says how many are left.
    const signUp = await world.portal.client().post("/api/register", {
      username: "fairgoer",
      password: PASSWORD,
      confirmPassword: PASSWORD,
      token: first,
      serverId: world.serverId,
    });
    assert.equal(signUp.status, 200, signUp.text);
    await adminGo(admin, "/tokens/sheet?label=Spring+fair");
    await admin.getByTestId("sheet-count").filter({ hasText: "11 of 12 invitations can still be used" }).waitFor();
    assert.equal(await admin.locator(`[data-testid="invite-sheet"] [data-token="${first}"]`).count(), 0);
    await admin.getByLabel("Also show used up, expired and disabled ones").check();
    await admin.locator(`[data-testid="invite-sheet"] [data-token="${first}"]`).waitFor();

    await adminGo(phoneAdmin, "/tokens/sheet?label=Spring+fair");
    await phoneAdmin.getByTestId("invite-sheet").waitFor();
    assert.deepEqual(await overflowing(phoneAdmin), []);
    assert.equal(
      await scan(phoneAdmin.getByTestId("invite-card").first().locator(".invite-card-qr")),
      linkOf(tokens[1] as string),
    );
    await shot(phoneAdmin, "sheet-phone");
    await adminGo(phoneAdmin, "/tokens");
    await phoneAdmin.getByRole("button", { name: "Batch of invitations" }).click();
    await phoneAdmin.getByTestId("token-batch-form").waitFor();
    assert.deepEqual(await overflowing(phoneAdmin), []);
    await shot(phoneAdmin, "batch-form-phone");
  });

  it("opened from an invite, the sign-up page says what the invitation is worth before anything is typed", async () => {
    const api = world.admin;
    const expiry = Date.now() + 14 * 86_400_000;
    await api.post(tokensPath(), { token: "inv-valid", uses_allowed: 3, expiry_time: expiry });
    await api.post(tokensPath(), { token: "inv-used", uses_allowed: 1 });
    await world.portal.client().post("/api/register", {
      username: "first-one",
      password: PASSWORD,
      confirmPassword: PASSWORD,
      token: "inv-used",
      serverId: world.serverId,
    });
    await api.post(tokensPath(), { token: "inv-off", uses_allowed: 3 });
    await api.patch(`/api/admin/tokens/inv-off?serverId=${world.serverId}`);
    await api.post(tokensPath(), { token: "inv-late", expiry_time: Date.now() + 1500 });
    await until(
      "inv-late to expire",
      async () =>
        (await world.portal.client().post("/api/register/validate-token", { token: "inv-late", serverId: world.serverId })).body
          .state === "expired",
      10_000,
      250,
    );

    const cases: [string, string, RegExp][] = [
      ["inv-valid", "valid", /Your invitation is valid.*on demo\.local\..*It can be used until/],
      ["inv-used", "exhausted", /This invitation has been used up/],
      ["inv-off", "disabled", /This invitation has been withdrawn/],
      ["inv-late", "expired", /This invitation has expired/],
      ["never-made", "unknown", /This invitation is not known here/],
    ];
    for (const phone of [false, true]) {
      const { page } = await world.newPage({ phone });
      for (const [token, state, text] of cases) {
        await page.goto(linkOf(token));
        const notice = page.getByTestId("invite-notice");
        await notice.and(page.locator(`[data-state="${state}"]`)).waitFor();
        assert.match((await notice.textContent()) ?? "", text, token);
        const form = page.getByTestId("signup-form");
        if (state === "valid") {
          assert.equal(await page.getByLabel("Registration token").inputValue(), token);
          assert.equal(await page.getByLabel("Username").inputValue(), "", "nothing typed");
        } else {
          assert.equal(await form.count(), 0, "no form to fill for nothing");
        }
        if (phone) assert.deepEqual(await overflowing(page), [], token);
        await shot(page, `signup-${state}-${phone ? "phone" : "desktop"}`, true);
      }
    }

    // From a withdrawn invitation the visitor can still type a code they were given some other way.
    const { page } = await world.newPage({ phone: true });
    await page.goto(linkOf("inv-off"));
    await page.getByRole("button", { name: "I have another invitation code" }).click();
    const field = page.getByLabel("Registration token");
    await field.waitFor();
    assert.equal(await field.inputValue(), "");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "token");
    await field.fill("inv-valid");
    await page.getByTestId("field-token").getByText("This token is valid.").waitFor();
    assert.equal(await page.getByTestId("invite-notice").count(), 0, "the notice was about the link's token");

    // An older ?token= link works, and its token moves out of the query at once.
    await page.goto(`${world.portal.url}/?server=demo&token=inv-valid`);
    await page.getByTestId("invite-notice").and(page.locator('[data-state="valid"]')).waitFor();
    const address = new URL(page.url());
    assert.equal(address.search, "?server=demo");
    assert.equal(address.hash, "#token=inv-valid");

    // No index, no referrer, nothing from another origin.
    assert.equal(await page.locator('meta[name="robots"]').getAttribute("content"), "noindex, nofollow");
    assert.equal(await page.locator('meta[name="referrer"]').getAttribute("content"), "no-referrer");
    assert.deepEqual(world.strayRequests, []);
    assert.deepEqual(world.cspViolations, []);
  });
});
