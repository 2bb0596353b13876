import { useState } from "preact/hooks";
import { saveText } from "../../../../common/clipboard.ts";
import { Empty, ErrorMessage, Loading, PageHeader } from "../../../../common/components/ui.tsx";
import { Link } from "../../../../common/hash-router.tsx";
import { useAsync } from "../../../../common/use-async.ts";
import { inviteLink } from "../../lib/invite-link.ts";
import { A } from "../../strings/admin.ts";
import { listTokens, type ServerRecord, type TokenRecord, tokenStatus } from "../api.ts";
import { InviteCard } from "../components/invite-card.tsx";
import { fileNameOf, inviteCsv } from "../invite-csv.ts";
import { useSelectedServer } from "../servers-store.ts";
import { WithServer } from "./dashboard.tsx";
import { LocalLinkWarning } from "./token-invite.tsx";

function csvOf(server: ServerRecord, tokens: readonly TokenRecord[]): string {
  return inviteCsv(
    tokens.map((token) => ({
      token: token.token,
      link: inviteLink(server, token.token),
      label: token.label,
      note: token.note,
      status: A.tokens.status[tokenStatus(token)],
      usesAllowed: token.disabled ? 0 : token.uses_allowed,
      used: token.completed,
      expiresAt: token.expiry_time,
    })),
  );
}

function Sheet({ serverId, server, label }: { serverId: string; server: ServerRecord; label: string }) {
  const tokens = useAsync(() => listTokens(serverId), [serverId]);
  const [includeUsed, setIncludeUsed] = useState(false);
  const all = (tokens.data ?? []).filter((token) => token.label === label);
  const shown = includeUsed ? all : all.filter((token) => tokenStatus(token) === "valid");
  return (
    <>
      <PageHeader title={A.sheet.title(label)} crumb={<Link href="/tokens">{A.sheet.back}</Link>}>
        <button type="button" class="btn" disabled={shown.length === 0} onClick={() => window.print()}>
          {A.sheet.print}
        </button>
        <button
          type="button"
          class="btn"
          data-testid="download-csv"
          disabled={shown.length === 0}
          onClick={() => saveText(fileNameOf(label, "csv"), csvOf(server, shown), "text/csv")}
        >
          {A.sheet.csv}
        </button>
      </PageHeader>
      <p class="muted no-print">{A.sheet.intro}</p>
      {tokens.error ? <ErrorMessage error={tokens.error} title={A.sheet.loadFailed} onRetry={() => tokens.reload()} /> : null}
      {!tokens.data ? (
        tokens.error ? null : (
          <Loading />
        )
      ) : all.length === 0 ? (
        <Empty title={A.sheet.none} />
      ) : (
        <>
          <div class="toolbar no-print sheet-toolbar">
            <label class="checkbox">
              <input type="checkbox" checked={includeUsed} onChange={(e) => setIncludeUsed(e.currentTarget.checked)} />
              {A.sheet.includeUsed}
            </label>
            <span class="muted" data-testid="sheet-count">
              {A.sheet.count(shown.length, all.length)}
            </span>
          </div>
          <LocalLinkWarning link={inviteLink(server, all[0]?.token ?? "")} />
          {shown.length === 0 ? (
            <Empty title={A.sheet.noneUsable} />
          ) : (
            <div class="invite-sheet print-area" data-testid="invite-sheet">
              {shown.map((token) => (
                <InviteCard
                  key={token.token}
                  link={inviteLink(server, token.token)}
                  token={token.token}
                  serverName={server.serverName}
                />
              ))}
            </div>
          )}
        </>
      )}
    </>
  );
}

/** `#/tokens/sheet?label=…`: every token with that label as a printable sheet of QR cards, and as CSV. */
export function TokenSheetPage({ label }: { label: string }) {
  const { server } = useSelectedServer();
  return (
    <WithServer title={A.sheet.title(label)}>
      {(serverId) => (server ? <Sheet key={`${serverId}-${label}`} serverId={serverId} server={server} label={label} /> : null)}
    </WithServer>
  );
}
