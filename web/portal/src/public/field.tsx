import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";

export type FieldStatus = { kind: "ok" | "error" | "info" | "pending"; text: string } | null;

export interface ControlProps {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
}

const ICON: Record<NonNullable<FieldStatus>["kind"], string> = { ok: "✓", error: "!", info: "i", pending: "…" };

/**
 * A labelled input of the sign-up form: hint and live status are tied to the control with aria-describedby, and the
 * status line is a polite live region, so a screen reader hears "available" or "taken" without losing its place.
 */
export function SignupField({
  label,
  hint,
  status,
  optional,
  testId,
  children,
}: {
  label: string;
  hint?: ComponentChildren;
  status?: FieldStatus;
  optional?: string;
  testId?: string;
  children: (props: ControlProps) => ComponentChildren;
}) {
  const id = useId();
  // Only fields with a live check have a status line (it keeps its height, so messages do not make the form jump).
  const live = status !== undefined;
  const describedBy = [hint ? `${id}-hint` : "", live ? `${id}-status` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div class="su-field" data-testid={testId}>
      <label for={id}>
        {label}
        {optional ? <span class="su-optional"> ({optional})</span> : null}
      </label>
      {children({ id, "aria-describedby": describedBy, "aria-invalid": status?.kind === "error" ? true : undefined })}
      {hint ? (
        <p class="su-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {live ? (
        <p class={`su-status${status ? ` su-status-${status.kind}` : ""}`} id={`${id}-status`} aria-live="polite">
          {status ? (
            <>
              <span class="su-status-icon" aria-hidden="true">
                {ICON[status.kind]}
              </span>
              {status.text}
            </>
          ) : null}
        </p>
      ) : (
        // The same room as a status line, so every field is spaced alike.
        <p class="su-status" aria-hidden="true" />
      )}
    </div>
  );
}
