import { P } from "../strings/public.ts";
import type { TokenValidity } from "./live-checks.ts";

/** Whether an invitation in this state can no longer be used (nothing typed would change that). */
export const deadInvite = (validity: TokenValidity) =>
  validity.state === "exhausted" ||
  validity.state === "disabled" ||
  validity.state === "expired" ||
  validity.state === "unknown" ||
  validity.state === "invalid";

const TITLES = {
  checking: [P.invite.checking, null],
  exhausted: [P.invite.exhausted, P.invite.exhaustedText],
  disabled: [P.invite.disabled, P.invite.disabledText],
  expired: [P.invite.expired, P.invite.expiredText],
  unknown: [P.invite.unknown, P.invite.unknownText],
  invalid: [P.invite.invalid, P.invite.invalidText],
  unchecked: [P.invite.unchecked, P.invite.uncheckedText],
} as const;

/** A date and time as the visitor's language writes them ("12 March 2030 at 18:00"). */
function when(ms: number): string {
  return new Intl.DateTimeFormat(document.documentElement.lang || undefined, { dateStyle: "long", timeStyle: "short" }).format(
    ms,
  );
}

/**
 * What the invitation the page was opened with is worth, said before anyone types: valid (until when), used up,
 * withdrawn, expired, not known here, or not checkable right now. A live region, so screen readers hear the verdict
 * when it arrives; the tone follows the verdict.
 */
export function InviteNotice({ validity, serverName }: { validity: TokenValidity; serverName: string }) {
  if (validity.state === "idle") return null;
  let title: string;
  let text: string | null;
  if (validity.state === "valid") {
    title = P.invite.valid;
    const until =
      "expiresAt" in validity && validity.expiresAt !== null ? ` ${P.invite.validUntil(when(validity.expiresAt))}` : "";
    text = `${P.invite.validText(serverName)}${until}`;
  } else {
    [title, text] = TITLES[validity.state];
  }
  const tone = validity.state === "valid" ? "ok" : deadInvite(validity) ? "bad" : "info";
  return (
    <div class={`su-invite su-invite-${tone}`} role="status" data-testid="invite-notice" data-state={validity.state}>
      <span class="su-invite-icon" aria-hidden="true">
        {tone === "ok" ? "✓" : tone === "bad" ? "!" : "i"}
      </span>
      <div>
        <strong>{title}</strong>
        {text ? <span>{text}</span> : null}
      </div>
    </div>
  );
}
