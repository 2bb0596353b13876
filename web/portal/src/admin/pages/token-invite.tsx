import { saveBlob, saveText } from "../../../../common/clipboard.ts";
import { CopyButton } from "../../../../common/components/copy-button.tsx";
import { notify } from "../../../../common/components/notify.tsx";
import { Card, ErrorMessage, Loading, PageHeader } from "../../../../common/components/ui.tsx";
import { Link } from "../../../../common/hash-router.tsx";
import { browserDeflate } from "../../../../common/png.ts";
import { qrPng, qrSvg } from "../../../../common/qr.ts";
import { useAsync } from "../../../../common/use-async.ts";
import { inviteLink, isLocalHost } from "../../lib/invite-link.ts";
import { A } from "../../strings/admin.ts";
import { getToken, type ServerRecord, tokenStatus } from "../api.ts";
import { InviteCard } from "../components/invite-card.tsx";
import { Badge } from "../components/ui.tsx";
import { useSelectedServer } from "../servers-store.ts";
import { WithServer } from "./dashboard.tsx";

/** Saves the invite's QR code as a PNG file (16 pixels a module, drawn and compressed in the browser). */
async function downloadPng(link: string, token: string): Promise<void> {
  try {
    const png = await qrPng(link, browserDeflate);
    saveBlob(`invite-${token}.png`, new Blob([png as BlobPart], { type: "image/png" }));
  } catch (error) {
    notify.error(error, A.invite.downloadPng);
  }
}

/** A warning when the link points at an address only the admin's own network can open. */
export function LocalLinkWarning({ link }: { link: string }) {
  const host = new URL(link).host;
  if (!isLocalHost(new URL(link).hostname)) return null;
  return (
    <div class="notice notice-warn" role="note" data-testid="local-link-warning">
      <div>{A.invite.localHost(host)}</div>
    </div>
  );
}

function Invite({ serverId, server, token }: { serverId: string; server: ServerRecord; token: string }) {
  const record = useAsync(() => getToken(serverId, token), [serverId, token]);
  const link = inviteLink(server, token);
  const status = record.data ? tokenStatus(record.data) : null;
  return (
    <>
      <PageHeader title={A.invite.title(token)} crumb={<Link href="/tokens">{A.nav.tokens}</Link>}>
        <button type="button" class="btn" onClick={() => window.print()}>
          {A.invite.print}
        </button>
      </PageHeader>
      <p class="muted no-print">{A.invite.intro}</p>
      {record.error ? <ErrorMessage error={record.error} title={A.invite.loadFailed} onRetry={() => record.reload()} /> : null}
      {record.loading && !record.data ? <Loading /> : null}
      {status && status !== "valid" ? (
        <div class="notice notice-warn no-print" role="note" data-testid="invite-not-usable">
          <div>{A.invite.notUsable(A.tokens.status[status])}</div>
        </div>
      ) : null}
      <LocalLinkWarning link={link} />
      <div class="invite-layout">
        <div class="print-area">
          <InviteCard link={link} token={token} serverName={server.serverName} large />
        </div>
        <Card title={A.invite.link} class="no-print">
          {status ? (
            <p>
              <Badge tone={status === "valid" ? "ok" : "warn"} testId="invite-status">
                {A.tokens.status[status]}
              </Badge>
            </p>
          ) : null}
          <code class="block invite-link" data-testid="invite-link">
            {link}
          </code>
          <div class="invite-actions">
            <CopyButton text={link} label={A.invite.copyLabel} testId="copy-invite-link">
              {A.invite.copy}
            </CopyButton>
            <button
              type="button"
              class="btn btn-small"
              data-testid="download-svg"
              onClick={() => saveText(`invite-${token}.svg`, qrSvg(link, A.invite.qrLabel(token)), "image/svg+xml")}
            >
              {A.invite.downloadSvg}
            </button>
            <button type="button" class="btn btn-small" data-testid="download-png" onClick={() => downloadPng(link, token)}>
              {A.invite.downloadPng}
            </button>
          </div>
          <p class="hint">{A.invite.privacy}</p>
        </Card>
      </div>
    </>
  );
}

/** `#/tokens/<token>/invite`: one token's invite link, QR code (SVG, PNG), copy button and printable card. */
export function TokenInvitePage({ token }: { token: string }) {
  const { server } = useSelectedServer();
  return (
    <WithServer title={A.invite.title(token)}>
      {(serverId) => (server ? <Invite key={`${serverId}-${token}`} serverId={serverId} server={server} token={token} /> : null)}
    </WithServer>
  );
}
