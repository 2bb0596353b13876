import { useEffect, useRef } from "preact/hooks";
import { useCopy } from "../../../common/use-copy.ts";
import type { ClientLink, PublicBranding, PublicServer } from "../api/public-types.ts";
import { P } from "../strings/public.ts";
import { brandingText } from "./branding-text.ts";

export function CopyValue({ value, label }: { value: string; label: string }) {
  const { copied, copy } = useCopy();
  return (
    <button
      type="button"
      class="su-copy"
      aria-label={label}
      // A refused copy needs nothing more: the value is on screen and can be selected by hand.
      onClick={() => copy(value).catch(() => undefined)}
    >
      <span aria-live="polite">{copied ? P.success.copied : P.success.copy}</span>
    </button>
  );
}

const ORDER: ClientLink["platform"][] = ["web", "desktop", "ios", "android", "other"];

/**
 * After sign-up: the new Matrix ID (copyable), and how to sign in: a client from the branding's list, the homeserver
 * address to enter, then username and password. The heading takes the focus so screen readers announce the result.
 */
export function SignupSuccess({
  userId,
  server,
  branding,
  onAnother,
  preview = false,
}: {
  userId: string;
  server: PublicServer;
  branding: PublicBranding;
  onAnother?: () => void;
  /** In the admin's preview: no focus move, and no page-level heading. */
  preview?: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!preview) heading.current?.focus();
  }, [preview]);
  const Title = preview ? "p" : "h1";
  const Subtitle = preview ? "p" : "h2";
  const clients = [...branding.clientLinks].sort((a, b) => ORDER.indexOf(a.platform) - ORDER.indexOf(b.platform));
  const successText = brandingText(branding, "successText");
  const homeserver = server.publicUrl.replace(/^https:\/\//, "").replace(/\/$/, "");
  return (
    <section class="su-success" data-testid="signup-success" aria-labelledby={preview ? undefined : "su-success-title"}>
      <div class="su-success-mark" aria-hidden="true">
        ✓
      </div>
      <Title id={preview ? undefined : "su-success-title"} class="su-success-title" ref={heading} tabIndex={-1}>
        {P.success.title}
      </Title>
      {successText.text ? (
        <p class="su-text" lang={successText.lang}>
          {successText.text}
        </p>
      ) : null}
      <div class="su-id-box">
        <span class="su-id-label">{P.success.yourId}</span>
        <code class="su-id" data-testid="matrix-id">
          {userId}
        </code>
        <CopyValue value={userId} label={P.success.copyId} />
      </div>
      <Subtitle class="su-howto">{P.success.howTo}</Subtitle>
      <ol class="su-steps">
        <li>
          <p>{P.success.step1}</p>
          {clients.length > 0 ? (
            <ul class="su-clients">
              {clients.map((client) => (
                <li key={client.url}>
                  <a href={client.url} target="_blank" rel="noopener noreferrer">
                    <span class="su-client-name">{client.name}</span>
                    <span class="su-client-platform">{P.success.platforms[client.platform]}</span>
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </li>
        <li>
          <p>{P.success.step2(homeserver)}</p>
          <div class="su-id-box su-id-box-small">
            <span class="su-id-label">{P.success.homeserver}</span>
            <code class="su-id">{homeserver}</code>
            <CopyValue value={homeserver} label={P.success.copyServer} />
          </div>
        </li>
        <li>
          <p>{P.success.step3}</p>
        </li>
      </ol>
      {onAnother ? (
        <button type="button" class="su-link-button" onClick={onAnother}>
          {P.success.another}
        </button>
      ) : null}
    </section>
  );
}
