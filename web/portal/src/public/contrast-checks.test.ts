import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BRANDING_DEFAULTS } from "../../../../portal/src/contract.ts";
import { contrastChecks, formatRatio } from "./contrast-checks.ts";
import { themeStyle } from "./theme.ts";

describe("branding contrast checks", () => {
  it("passes every check with the built-in default colours, in both schemes", () => {
    const checks = contrastChecks(BRANDING_DEFAULTS);
    assert.deepEqual(
      checks.map((check) => check.id),
      [
        "textOnCard",
        "textOnBackground",
        "buttonOnCard",
        "buttonLabel",
        "linksOnCard",
        "focusOnCard",
        "buttonOnDarkCard",
        "buttonLabelDark",
        "focusOnDarkCard",
      ],
      "auto shows both schemes",
    );
    assert.deepEqual(
      checks.filter((check) => !check.pass).map((check) => `${check.id} ${formatRatio(check.ratio)}`),
      [],
    );
  });

  it("keeps a chosen colour exactly as chosen on the page, and reports its low contrast instead", () => {
    const pale = { ...BRANDING_DEFAULTS, primaryColor: "#7fffd4", accentColor: "#ffd700", textColor: "#999999" };
    const style = themeStyle(pale);
    assert.equal(style["--su-primary-light"], "#7fffd4", "the button is the chosen colour in the light scheme");
    assert.equal(style["--su-primary-dark"], "#7fffd4", "and in the dark scheme");
    assert.equal(style["--su-accent-light"], "#ffd700");
    assert.equal(style["--su-text-light"], "#999999");
    assert.equal(style["--su-link-light"], "#999999", "too light for text: links use the text colour");
    assert.equal(style["--su-onPrimary-light"], "#000000", "black reads better than white on aquamarine");

    const failing = contrastChecks(pale).filter((check) => !check.pass);
    assert.deepEqual(
      failing.map((check) => [check.id, check.foreground, check.background, formatRatio(check.ratio), check.required]),
      [
        ["textOnCard", "#999999", "#ffffff", "2.8:1", 4.5],
        ["textOnBackground", "#999999", "#f4f6fa", "2.6:1", 4.5],
        ["buttonOnCard", "#7fffd4", "#ffffff", "1.2:1", 3],
        ["linksOnCard", "#7fffd4", "#ffffff", "1.2:1", 4.5],
        ["focusOnCard", "#ffd700", "#ffffff", "1.4:1", 3],
      ],
    );
  });

  it("uses the primary colour for links when it is readable, and shows only the schemes visitors can see", () => {
    const style = themeStyle({ ...BRANDING_DEFAULTS, primaryColor: "#004488" });
    assert.equal(style["--su-link-light"], "#004488");
    assert.equal(style["--su-link-dark"], "#e8eaed", "the dark scheme draws links in its own text colour");
    const light = contrastChecks({ ...BRANDING_DEFAULTS, colorScheme: "light" });
    assert.ok(light.every((check) => check.scheme === "light"));
    const dark = contrastChecks({ ...BRANDING_DEFAULTS, colorScheme: "dark" });
    assert.ok(dark.every((check) => check.scheme === "dark"));
  });

  it("rounds ratios down for display and never rounds a failure into a pass", () => {
    assert.equal(formatRatio(4.4999), "4.4:1");
    assert.equal(formatRatio(21), "21.0:1");
    const almost = contrastChecks({ ...BRANDING_DEFAULTS, colorScheme: "light", textColor: "#777777" });
    const text = almost.find((check) => check.id === "textOnCard");
    assert.ok(text && text.ratio > 4.47 && text.ratio < 4.5, String(text?.ratio));
    assert.equal(text.pass, false);
  });
});
