// The building blocks both web UIs' pages are made of (the classes are styled by common/styles/base.css).
import type { ComponentChildren, HTMLAttributes } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";
import { UI } from "../strings.ts";

/**
 * A failed request, shown where its data would be; `onRetry` offers to try again. A form's refusal (`focus`) is
 * scrolled to and focused, since the submit button may be far below it.
 */
export function ErrorMessage({
  error,
  onRetry,
  title,
  focus = false,
}: {
  error: Error | string;
  onRetry?: () => void;
  title?: string;
  focus?: boolean;
}) {
  const message = typeof error === "string" ? error : error.message;
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus, error]);
  return (
    <div class="notice notice-error" role="alert" data-testid="error-message" ref={ref} tabIndex={focus ? -1 : undefined}>
      <div>
        {title ? <strong>{title}: </strong> : null}
        {message}
      </div>
      {onRetry ? (
        <button type="button" class="btn btn-small" onClick={onRetry}>
          {UI.retry}
        </button>
      ) : null}
    </div>
  );
}

export function Loading({ label = UI.loading }: { label?: string }) {
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

/** The page's title (focused on navigation, see AppShell), its actions, and an optional breadcrumb above it. */
export function PageHeader({
  title,
  children,
  crumb,
}: {
  title: string;
  children?: ComponentChildren;
  crumb?: ComponentChildren;
}) {
  return (
    <>
      {crumb ? <p class="crumb">{crumb}</p> : null}
      <div class="page-header">
        <h1 id="page-title" tabIndex={-1}>
          {title}
        </h1>
        {children ? <div class="page-actions">{children}</div> : null}
      </div>
    </>
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

export interface ControlProps {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
}

/** A labelled form field with an optional hint and error, wired with aria-describedby. */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: ComponentChildren;
  error?: string | null;
  children: (props: ControlProps) => ComponentChildren;
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
        {UI.previous}
      </button>
      <span aria-live="polite">{UI.pageOf(from, to, total)}</span>
      <button type="button" class="btn btn-small" disabled={to >= total} onClick={() => onChange(offset + limit)}>
        {UI.next}
      </button>
    </nav>
  );
}
