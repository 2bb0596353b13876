import type { BrandingSettings } from "../../api/public-types.ts";
import { type ContrastCheck, contrastChecks, formatRatio } from "../../public/contrast-checks.ts";
import { A } from "../../strings/admin.ts";

function Swatch({ colour }: { colour: string }) {
  // Preact sets `style` through the CSSOM, which the portal's CSP allows.
  return <span class="swatch" aria-hidden="true" style={{ background: colour }} />;
}

function Row({ check }: { check: ContrastCheck }) {
  const text = A.branding.contrast.checks[check.id];
  return (
    <li class={`contrast-row ${check.pass ? "contrast-pass" : "contrast-fail"}`} data-check={check.id} data-pass={check.pass}>
      <span class="contrast-pair">
        <Swatch colour={check.foreground} />
        <span class="small muted">{A.branding.contrast.on}</span>
        <Swatch colour={check.background} />
      </span>
      <span class="contrast-what">
        <strong>{text.label}</strong>
        <span class="block small muted">{A.branding.contrast.measured(check.foreground, text.against, check.background)}</span>
        {check.pass ? null : <span class="block small">{text.advice}</span>}
      </span>
      <span class="contrast-ratio">
        {formatRatio(check.ratio)}
        <span class="block small muted">{A.branding.contrast.needs(formatRatio(check.required))}</span>
      </span>
      <span class="contrast-state">{check.pass ? A.common.pass : A.branding.contrast.low}</span>
    </li>
  );
}

/**
 * The contrast of every chosen colour where the sign-up page draws it, with its WCAG ratio and what it is measured
 * against. The colours are never changed to pass: a low ratio is a warning the admin decides on.
 */
export function BrandingContrast({ draft }: { draft: BrandingSettings }) {
  const checks = contrastChecks(draft);
  const failing = checks.filter((check) => !check.pass).length;
  const schemes = (["light", "dark"] as const).filter((scheme) => checks.some((check) => check.scheme === scheme));
  return (
    <section class="contrast" data-testid="contrast-checks" aria-labelledby="contrast-title">
      <h3 id="contrast-title">{A.branding.contrast.title}</h3>
      <p class={failing ? "notice" : "result-ok"} role="status" data-testid="contrast-summary">
        {failing ? A.branding.contrast.failing(failing) : A.branding.contrast.allPass}
      </p>
      <p class="hint">{A.branding.contrast.intro}</p>
      {schemes.map((scheme) => (
        <div key={scheme}>
          <h4>{A.branding.contrast.scheme[scheme]}</h4>
          <ul class="contrast-list">
            {checks
              .filter((check) => check.scheme === scheme)
              .map((check) => (
                <Row key={check.id} check={check} />
              ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
