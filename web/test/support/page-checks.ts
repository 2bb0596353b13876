import type { Page } from "playwright-core";
import { until } from "../../../lib/testing/polling.ts";

// Checks the UI tests of both apps make on a page, the way a person (or a screen reader) would notice.

/** Form controls and buttons without an accessible name (label, aria-label, aria-labelledby or text). */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("input, select, textarea, button")]
      .filter((el) => {
        if (el.closest("[hidden]") || (el as HTMLInputElement).type === "hidden") return false;
        const labelled =
          (el as HTMLInputElement).labels?.length || el.getAttribute("aria-label") || el.getAttribute("aria-labelledby");
        return !labelled && !(el.tagName === "BUTTON" && el.textContent?.trim());
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
}

/** Waits until the page shows its heading and nothing is loading any more. */
export async function settled(page: Page): Promise<void> {
  await page.locator("#page-title").first().waitFor();
  await page.waitForFunction(() => document.querySelectorAll(".loading").length === 0, undefined, { timeout: 10_000 });
}

/** Waits until `check()` holds (polled every 25 ms), or fails with `what` after `timeoutMs`. */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  await until(what, check, timeoutMs, 25);
}
