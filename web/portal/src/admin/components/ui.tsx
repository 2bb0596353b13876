import type { ComponentChildren } from "preact";
import { A } from "../../strings/admin.ts";

// The console's own pieces; the ones the hub's panel shares (Card, Field, ErrorMessage…) are in common/components.

/** A status pill: `tone` colours it, the text says it (colour is never the only signal). */
export function Badge({
  tone,
  children,
  testId,
  title,
}: {
  tone: "ok" | "warn" | "bad" | "off" | "info";
  children: ComponentChildren;
  testId?: string;
  /** A longer explanation, shown on hover. */
  title?: string;
}) {
  return (
    <span class={`badge badge-${tone}`} data-testid={testId} title={title}>
      <span class="dot" aria-hidden="true" />
      {children}
    </span>
  );
}

/** One diagnostics check: pass or fail with its meaning, never colour alone. */
export function Check({ ok, label, detail }: { ok: boolean | null; label: string; detail?: string | null }) {
  const state = ok === null ? "unknown" : ok ? "pass" : "fail";
  return (
    <li class={`check-row check-${state}`} data-check={label} data-state={state}>
      <span class="check-icon" aria-hidden="true">
        {ok === null ? "?" : ok ? "✓" : "✕"}
      </span>
      <span class="check-label">{label}</span>
      <span class="check-state">{ok === null ? A.common.unknown : ok ? A.common.pass : A.common.fail}</span>
      {detail ? <span class="check-detail">{detail}</span> : null}
    </li>
  );
}

/** A definition list of facts (label → value). */
export function Facts({ items }: { items: [string, ComponentChildren][] }) {
  return (
    <dl class="facts">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value ?? A.common.none}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The errors a check reported, one per line, under `title` when given; nothing when there are none. */
export function ErrorList({ errors, title }: { errors: string[]; title?: string }) {
  if (errors.length === 0) return null;
  const list = (
    <ul class="error-list">
      {errors.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  );
  return title ? (
    <>
      <h3>{title}</h3>
      {list}
    </>
  ) : (
    list
  );
}
