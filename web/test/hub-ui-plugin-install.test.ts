import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { type FakeNpmRegistry, startFakeNpmRegistry } from "../../hub/src/plugins/testing/fake-npm-registry.ts";
import {
  EXAMPLE_PLUGIN_DIR,
  offlineNpmEnv,
  packPlugin,
  writePluginFolder,
} from "../../hub/src/plugins/testing/plugin-fixtures.ts";
import { memoryLogger } from "../../lib/testing/fixtures.ts";
import { assertNetworkIsolated } from "../../lib/testing/isolation.ts";
import { createDemoHome } from "../../simulators/home-assistant/index.ts";
import { settled, unlabelledControls } from "./support/page-checks.ts";
import { ARTIFACTS, startUiWorld, type UiWorld } from "./support/ui-world.ts";

const EXAMPLE = "hub-plugin-example";

describe("hub UI: installing a plugin shows progress, can be cancelled, and explains failures (Chromium)", {
  timeout: 240_000,
}, () => {
  let world: UiWorld;
  let registry: FakeNpmRegistry;
  let work: string;

  const packages = async () => (await world.api<{ packages: { name: string }[] }>("GET", "/api/plugins")).body.packages;
  const open = async (phone = false): Promise<Page> => {
    const { page } = await world.newPage({ phone });
    await page.goto(`${world.proxy.url}#/plugins`);
    await settled(page);
    return page;
  };
  const install = async (page: Page, packageName: string) => {
    const card = page.getByTestId("plugin-install");
    await card.getByLabel("Package name").fill(packageName);
    await card.getByRole("button", { name: "Install", exact: true }).click();
    return card;
  };
  /** The step marked current in the progress list. */
  const currentStep = (page: Page) => page.getByTestId("install-progress").locator('[aria-current="step"]');

  before(async () => {
    assertNetworkIsolated();
    work = await mkdtemp(join(tmpdir(), "hub-ui-plugin-install-"));
    registry = await startFakeNpmRegistry(memoryLogger().log);
    const pack = async (dir: string) => readFile(await packPlugin(dir, join(work, "packed"), join(work, "pack-cache")));
    registry.publish(await pack(EXAMPLE_PLUGIN_DIR));
    registry.publish(
      await pack(await writePluginFolder(work, "future-plugin", "export default class F {}", { hubPluginApiVersion: 2 })),
    );
    world = await startUiWorld(createDemoHome(), {
      plugins: { npm: { env: offlineNpmEnv(join(work, "npm-cache"), registry.url) } },
    });
  });
  after(async () => {
    await world?.close();
    await registry?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("shows npm's progress step by step, finds the install again after a reload, and cancels it", async () => {
    registry.stallTarballs = true;
    const page = await open();
    const card = await install(page, EXAMPLE);
    const progress = page.getByTestId("install-progress");
    await progress.getByText(`Installing ${EXAMPLE}`).waitFor();
    // The download is held by the registry: the install waits in the Downloading step.
    await currentStep(page).filter({ hasText: "Downloading" }).waitFor({ timeout: 30_000 });
    assert.deepEqual(await progress.locator(".install-step-done").allTextContents(), ["Resolving"]);
    assert.match((await page.getByTestId("install-line").textContent()) ?? "", /\S/);
    assert.equal(await card.getByRole("button", { name: "Install", exact: true }).isDisabled(), true);
    assert.deepEqual(await unlabelledControls(page), []);
    await card.screenshot({ path: join(ARTIFACTS, "plugin-install-progress-light-desktop.png") });

    // A reload (or another tab) shows the same install, still running.
    await page.reload();
    await settled(page);
    await currentStep(page).filter({ hasText: "Downloading" }).waitFor({ timeout: 10_000 });
    await progress.getByText("npm output").click();
    await progress
      .locator("pre")
      .getByText(/fetch GET 200 .*hub-plugin-example/)
      .first()
      .waitFor();

    await progress.getByRole("button", { name: "Cancel installation" }).click();
    const cancelled = page.getByTestId("install-cancelled");
    await cancelled.waitFor({ timeout: 15_000 });
    assert.equal(
      await cancelled.textContent(),
      `Installation cancelled: ${EXAMPLE} was not installed; the plugins are as they were before.Dismiss`,
    );
    assert.equal(await progress.count(), 0);
    assert.deepEqual(await packages(), [], "nothing was installed");
    await page.evaluate(() => window.scrollTo(0, 0));
    await card.screenshot({ path: join(ARTIFACTS, "plugin-install-cancelled-light-desktop.png") });
    await cancelled.getByRole("button", { name: "Dismiss" }).click();
    assert.equal(await cancelled.count(), 0);
    registry.stallTarballs = false;
    await page.context().close();
  });

  it("turns npm's failure into a sentence, with npm's output behind Details", async () => {
    const page = await open();
    const card = await install(page, "no-such-plugin");
    const failure = card.getByRole("alert");
    await failure.waitFor({ timeout: 30_000 });
    const text = await failure.locator("> div").innerText(); // what is shown: a closed <details> hides its lines
    assert.match(text, /^Installation failed: There is no package named no-such-plugin on the npm registry\. Check the spelling/);
    assert.doesNotMatch(text, /npm error/, "npm's raw lines stay folded");
    const details = failure.locator("details");
    assert.equal(await details.locator("pre").isVisible(), false);
    await details.getByText("Details (npm's output)").click();
    await details
      .locator("pre")
      .getByText(/npm error code E404/)
      .waitFor();
    await card.screenshot({ path: join(ARTIFACTS, "plugin-install-error-light-desktop.png") });
    // The failure stays readable after a reload: this tab started it.
    await page.reload();
    await settled(page);
    await page
      .getByTestId("install-error")
      .getByText(/There is no package named no-such-plugin/)
      .waitFor();
    await page.context().close();
  });

  it("works on a phone (390 px): progress, cancel, and a failure that fits the screen", async () => {
    const page = await open(true);
    registry.stallTarballs = true;
    const card = await install(page, EXAMPLE);
    await currentStep(page).filter({ hasText: "Downloading" }).waitFor({ timeout: 30_000 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling (${overflow} px too wide)`);
    await card.screenshot({ path: join(ARTIFACTS, "plugin-install-progress-light-phone.png") });
    await page.getByRole("button", { name: "Cancel installation" }).click();
    await page.getByTestId("install-cancelled").waitFor({ timeout: 15_000 });
    registry.stallTarballs = false;

    await install(page, `${EXAMPLE}@9.9.9`);
    const failure = page.getByTestId("install-error");
    await failure.waitFor({ timeout: 30_000 });
    assert.equal(await failure.getAttribute("data-code"), "no-matching-version");
    await failure.getByText(`${EXAMPLE} has no published version matching "9.9.9".`, { exact: false }).waitFor();
    await failure.getByText("Details (npm's output)").click();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(wide <= 0, `npm's output wraps instead of widening the page (${wide} px)`);
    await card.screenshot({ path: join(ARTIFACTS, "plugin-install-error-light-phone.png") });
    await page.context().close();
  });

  it("installs once the registry answers: the progress ends in the usual confirmation", async () => {
    const page = await open();
    await install(page, EXAMPLE);
    await page.getByText(`Installed ${EXAMPLE} 1.0.0. Enable it on a bridge below.`).waitFor({ timeout: 60_000 });
    assert.equal(await page.getByTestId("install-progress").count(), 0);
    assert.deepEqual(
      (await packages()).map((p) => p.name),
      [EXAMPLE],
    );
    // A plugin written for another plugin API version installs, and the card says what that means.
    await install(page, "future-plugin");
    const warning = page.getByTestId("install-warning");
    await warning.waitFor({ timeout: 60_000 });
    assert.equal(
      await warning.locator("> div").innerText(),
      "Installed, with a warning: future-plugin targets plugin API version 2, this hub implements 1; loading it anyway",
    );
    await page.getByTestId("plugin-install").screenshot({ path: join(ARTIFACTS, "plugin-install-warning-light-desktop.png") });
    assert.deepEqual(world.strayRequests, [], "every request stayed under the ingress path");
    await page.context().close();
  });
});
