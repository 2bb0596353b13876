import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome } from "../../simulators/home-assistant/index.ts";
import { settled, unlabelledControls } from "./support/page-checks.ts";
import { ARTIFACTS, startUiWorld, type UiWorld } from "./support/ui-world.ts";

// The `exposed_to` filter rule (issue 20, part 1) in the hub UI, under the ingress path: the filter builder offers
// Home Assistant's voice assistants with how many entities each has, takes any other assistant id of HA's shape,
// refuses anything else before asking the hub, and the preview says which assistants each entity is exposed to.

interface BridgeRecord {
  id: string;
  name: string;
  filter: unknown;
}

async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((hash) => {
    location.hash = hash;
  }, path);
  await settled(page);
}

describe("hub UI: the exposed_to rule (demo home, real hub, headless Chromium)", { timeout: 120_000 }, () => {
  let world: UiWorld;
  let page: Page;
  /** The hub's own answer for a filter, to compare the page with. */
  const total = async (filter: unknown) =>
    (await world.api<{ total: number }>("POST", "/api/matter/filter-preview", { filter })).body.total;
  const previewCount = (p: Page, n: number) =>
    p
      .getByTestId("preview-count")
      .filter({ hasText: new RegExp(`^${n} entit(y matches|ies match)$`) })
      .waitFor();

  before(async () => {
    assertNetworkIsolated();
    world = await startUiWorld(createDemoHome());
    ({ page } = await world.newPage());
    await page.goto(world.proxy.url);
    await settled(page);
  });
  after(async () => {
    await world?.close();
  });

  it("builds include and exclude rules from HA's assistants and a free id, with the preview following, and saves", async () => {
    await go(page, "/bridges/new");
    await page.getByLabel("Name", { exact: true }).fill("Voice");
    const everything = await total({ include: [], exclude: [] });
    await previewCount(page, everything);

    // Include: the assistants HA names, each with the number of entities exposed to it.
    const include = page.getByTestId("include-rules");
    await include.getByRole("button", { name: "Add rule" }).click();
    await include.getByLabel("Rule 1 type").selectOption("exposed_to");
    const choice = include.getByLabel("Rule 1 value");
    const options = await choice.locator("option").allTextContents();
    const exposed = world.sim.exposedEntities();
    const count = (assistant: string) => Object.values(exposed).filter((e) => e[assistant]).length;
    assert.deepEqual(options, [
      "Exposed to which assistant?",
      `Assist (conversation) · ${count("conversation")}`,
      `Amazon Alexa (cloud.alexa) · ${count("cloud.alexa")}`,
      `Google Assistant (cloud.google_assistant) · ${count("cloud.google_assistant")}`,
      "Other assistant id…",
    ]);
    await choice.selectOption("conversation");
    const toAssist = await total({ include: [{ type: "exposed_to", value: "conversation" }] });
    assert.ok(toAssist >= 5 && toAssist < everything, `${toAssist} of ${everything}`);
    await previewCount(page, toAssist);
    const ceiling = page.locator('[data-entity-id="light.living_room_ceiling"]');
    assert.equal(await ceiling.getByTestId("preview-assistants").textContent(), "Exposed to Amazon Alexa, Assist");

    // Exclude, by a free id: refused before the hub is asked while it is not an id, then taken.
    const exclude = page.getByTestId("exclude-rules");
    await exclude.getByRole("button", { name: "Add rule" }).click();
    await exclude.getByLabel("Rule 1 type").selectOption("exposed_to");
    await exclude.getByLabel("Rule 1 value").selectOption("other assistant");
    const free = exclude.getByLabel("Rule 1 assistant id");
    await free.fill("alexa please");
    await exclude.getByText("Not an assistant id: Home Assistant's look like conversation or cloud.alexa.").waitFor();
    await page.getByText("Fix the highlighted rules to see the preview.").waitFor();
    assert.equal(await free.getAttribute("aria-invalid"), "true");
    await free.fill("cloud.alexa");
    const filter = {
      include: [{ type: "exposed_to", value: "conversation" }],
      exclude: [{ type: "exposed_to", value: "cloud.alexa" }],
      includeHidden: false,
    };
    const toAssistOnly = await total(filter);
    assert.ok(toAssistOnly > 0 && toAssistOnly < toAssist, `${toAssistOnly} of ${toAssist}`);
    await previewCount(page, toAssistOnly);
    await ceiling.waitFor({ state: "detached" });
    const lines = await page.getByTestId("preview-assistants").allTextContents();
    assert.ok(lines.length > 0 && lines.every((line) => line === "Exposed to Assist"), lines.join(" | "));
    assert.deepEqual(await unlabelledControls(page), []);
    await page.screenshot({ path: join(ARTIFACTS, "exposure-bridge-form-desktop.png"), fullPage: true });

    await page.getByTestId("save-bridge").click();
    await page.locator("h1", { hasText: "Voice" }).waitFor();
    const bridges = (await world.api<BridgeRecord[]>("GET", "/api/matter/bridges")).body;
    const saved = bridges.find((b) => b.name === "Voice");
    assert.ok(saved);
    assert.deepEqual(saved.filter, filter);

    // Editing it again: the id typed freely is one HA names, so it shows as chosen.
    await go(page, `/bridges/${saved.id}/edit`);
    assert.equal(await page.getByTestId("include-rules").getByLabel("Rule 1 value").inputValue(), "conversation");
    assert.equal(await page.getByTestId("exclude-rules").getByLabel("Rule 1 value").inputValue(), "cloud.alexa");
    await previewCount(page, toAssistOnly);

    // The same form on a 390 px phone.
    const { page: phone, context } = await world.newPage({ phone: true });
    await phone.goto(`${world.proxy.url}#/bridges/${saved.id}/edit`);
    await settled(phone);
    await previewCount(phone, toAssistOnly);
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `no sideways scrolling on a phone (${width} px)`);
    await phone.screenshot({ path: join(ARTIFACTS, "exposure-bridge-form-phone.png"), fullPage: true });
    // The free id field under its choice, on the phone's narrow grid.
    const phoneExclude = phone.getByTestId("exclude-rules");
    await phoneExclude.getByLabel("Rule 1 value").selectOption("other assistant");
    await phoneExclude.getByLabel("Rule 1 assistant id").fill("cloud.alexa");
    await previewCount(phone, toAssistOnly);
    await phoneExclude.screenshot({ path: join(ARTIFACTS, "exposure-exclude-rules-phone.png") });
    await context.close();
    assert.deepEqual(world.strayRequests, [], "every request stayed under the ingress prefix");
  });
});
