import type { ComponentChildren, HTMLAttributes } from "preact";
import { useId } from "preact/hooks";
import type { BridgeStatus } from "../api/types.ts";
import { S } from "../strings.ts";

/** A failed request, shown where its data would be; `onRetry` offers to try again. */
export function ErrorMessage({ error, onRetry, title }: { error: Error | string; onRetry?: () => void; title?: string }) {
  const message = typeof error === "string" ? error : error.message;
  return (
    <div class="notice notice-error" role="alert">
      <div>
        {title ? <strong>{title}: </strong> : null}
        {message}
      </div>
      {onRetry ? (
        <button type="button" class="btn btn-small" onClick={onRetry}>
          {S.common.retry}
        </button>
      ) : null}
    </div>
  );
}

export function Loading({ label = S.common.loading }: { label?: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children}
    </div>
  );
}

export function StatusBadge({ status }: { status: BridgeStatus }) {
  return (
    <span class={`badge badge-${status}`} data-status={status}>
      <span class="dot" aria-hidden="true" />
      {S.status[status] ?? status}
    </span>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="page-header">
      <h1 id="page-title" tabIndex={-1}>
        {title}
      </h1>
      {children ? <div class="page-actions">{children}</div> : null}
    </div>
  );
}

export function Card({
  title,
  children,
  actions,
  class: className,
  ...rest
}: { title?: ComponentChildren; children: ComponentChildren; actions?: ComponentChildren; class?: string } & Omit<
  HTMLAttributes<HTMLElement>,
  "title" | "class"
>) {
  const id = useId();
  return (
    <section class={`card ${className ?? ""}`} aria-labelledby={title ? id : undefined} {...rest}>
      {title || actions ? (
        <div class="card-header">
          {title ? <h2 id={id}>{title}</h2> : null}
          {actions ? <div class="card-actions">{actions}</div> : null}
        </div>
      ) : null}
      {children}
    </section>
  );
}

/** A labelled form field with an optional hint and error, wired with aria-describedby. */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string;
  error?: string | null;
  children: (props: { id: string; "aria-describedby"?: string; "aria-invalid"?: boolean }) => ComponentChildren;
}) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children({ id, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined })}
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Previous/next paging for a list of `total` rows shown `limit` at a time from `offset`. */
export function Pager({
  total,
  offset,
  limit,
  onChange,
  label,
}: {
  total: number;
  offset: number;
  limit: number;
  onChange: (offset: number) => void;
  label: string;
}) {
  if (total <= limit && offset === 0) return null;
  const from = total === 0 ? 0 : offset + 1;
  const to = Math.min(offset + limit, total);
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" class="btn btn-small" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))}>
        {S.common.previous}
      </button>
      <span aria-live="polite">{S.common.pageOf(from, to, total)}</span>
      <button type="button" class="btn btn-small" disabled={to >= total} onClick={() => onChange(offset + limit)}>
        {S.common.next}
      </button>
    </nav>
  );
}

/** True when the error says the endpoint does not exist on this hub (404 on a route, not on a record). */
export function isMissingEndpoint(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { status?: number }).status === 404 &&
    /^Not found: /.test((error as Error).message)
  );
}
