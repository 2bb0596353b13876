import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContextOptions, chromium } from "playwright-core";

// What both UI worlds (ui-world.ts for the hub, portal-world.ts for the portal) need from the browser side.

const root = fileURLToPath(new URL("../../..", import.meta.url));
/** Where the UI tests save their screenshots (look at them). */
export const ARTIFACTS = join(root, "test-artifacts", "ui");

/** Headless Chromium in a container, with nothing phoning home. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** The system's Chromium (playwright-core downloads no browser), and the screenshot folder made ready. */
export function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

const builds = new Map<"hub" | "portal", Promise<string>>();

/**
 * Builds one app's UI (`vite build --mode <app>`, as `npm run build:web` does) once per process into a temporary
 * folder, so the tests see the current sources and never the committed dist/.
 */
export function buildUi(app: "hub" | "portal"): Promise<string> {
  let built = builds.get(app);
  if (!built) {
    built = (async () => {
      const outDir = mkdtempSync(join(tmpdir(), `${app}-ui-`));
      process.once("exit", () => rmSync(outDir, { recursive: true, force: true }));
      const { build } = await import("vite");
      await build({
        configFile: join(root, "web", "vite.config.ts"),
        mode: app,
        logLevel: "warn",
        build: { outDir, emptyOutDir: true },
      });
      return outDir;
    })();
    builds.set(app, built);
  }
  return built;
}

export interface PageOptions {
  colorScheme?: "light" | "dark";
  /** A 390×844 touch phone at 2× instead of a desktop window. */
  phone?: boolean;
  /** The browser's language (navigator.languages); English (en-US) unless a test asks for another. */
  locale?: string;
}

/**
 * A browser context as a person would use the UI: desktop (1280 × `desktopHeight`) or phone, reduced motion, in
 * English unless `locale` says otherwise (both UIs follow the browser's language, whatever the host's is).
 */
export function contextOptions(options: PageOptions, desktopHeight: number): BrowserContextOptions {
  const phone = options.phone ?? false;
  return {
    viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: desktopHeight },
    deviceScaleFactor: phone ? 2 : 1,
    isMobile: phone,
    hasTouch: phone,
    colorScheme: options.colorScheme ?? "light",
    acceptDownloads: true,
    reducedMotion: "reduce",
    locale: options.locale ?? "en-US",
  };
}

/** The four looks the hub's pages are photographed in; `suffix` names the screenshot (`light-desktop`…). */
export const LOOKS = (["light", "dark"] as const).flatMap((colorScheme) =>
  [false, true].map((phone) => ({ colorScheme, phone, suffix: `${colorScheme}-${phone ? "phone" : "desktop"}` })),
);
