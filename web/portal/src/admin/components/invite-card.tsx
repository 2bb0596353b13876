import { useMemo } from "preact/hooks";
import { qrMatrix, qrPath, qrSide } from "../../../../common/qr.ts";
import { A } from "../../strings/admin.ts";
import "../../styles/invites.css";

/**
 * An invite link's QR code, drawn inline (no request, no blob: URL for the portal's CSP to weigh): dark modules on a
 * white field with its quiet zone, whatever the console's theme, because scanners need the contrast.
 */
export function QrCode({ value, label, class: className }: { value: string; label: string; class?: string }) {
  const { d, side } = useMemo(() => {
    const qr = qrMatrix(value);
    return { d: qrPath(qr), side: qrSide(qr) };
  }, [value]);
  return (
    <svg
      class={`qr ${className ?? ""}`}
      role="img"
      aria-label={label}
      viewBox={`0 0 ${side} ${side}`}
      shape-rendering="crispEdges"
      data-qr={value}
    >
      <rect width={side} height={side} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}

/**
 * One invitation as a card for paper: the QR code, what it is for, the token to type by hand and the address to
 * type without a camera. The sheet prints many of these, the invite page one large one. The token's label and note
 * stay off the card: they are the administrators' words, not the invitee's.
 */
export function InviteCard({
  link,
  token,
  serverName,
  large = false,
}: {
  link: string;
  token: string;
  serverName: string;
  large?: boolean;
}) {
  const typed = link.replace(/#.*$/, "");
  return (
    <article class={large ? "invite-card invite-card-large" : "invite-card"} data-token={token} data-testid="invite-card">
      <QrCode value={link} label={A.invite.qrLabel(token)} class="invite-card-qr" />
      <div class="invite-card-text">
        <strong class="invite-card-title">{A.invite.card.scan}</strong>
        <span class="invite-card-server">{A.invite.card.on(serverName)}</span>
        <span class="invite-card-code-label">{A.invite.card.code}</span>
        <code class="invite-card-code">{token}</code>
        <span class="invite-card-url">
          {A.invite.card.orOpen} <span>{typed}</span>
        </span>
      </div>
    </article>
  );
}
