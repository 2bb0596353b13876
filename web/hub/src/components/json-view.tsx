import { humanize } from "../lib/format.ts";

/** A readable view of a JSON value whose exact shape the UI does not know (detailed health, diagnostic events). */
export function JsonView({ value, depth = 0 }: { value: unknown; depth?: number }) {
  if (value === null || value === undefined) return <span class="muted">—</span>;
  if (typeof value !== "object") return <span>{String(value)}</span>;
  if (depth > 4) return <code class="small">{JSON.stringify(value)}</code>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span class="muted">—</span>;
    if (value.every((v) => v === null || typeof v !== "object")) return <span>{value.join(", ")}</span>;
    return (
      <ol class="json-list">
        {value.slice(0, 50).map((item, i) => (
          <li key={i}>
            <JsonView value={item} depth={depth + 1} />
          </li>
        ))}
        {value.length > 50 ? <li class="muted">… {value.length - 50}</li> : null}
      </ol>
    );
  }
  return (
    <dl class="json">
      {Object.entries(value as Record<string, unknown>).map(([key, v]) => (
        <div key={key}>
          <dt>{humanize(key)}</dt>
          <dd>
            <JsonView value={v} depth={depth + 1} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
