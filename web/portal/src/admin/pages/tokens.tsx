import { useState } from "preact/hooks";
import { CopyButton } from "../../../../common/components/copy-button.tsx";
import { attempt, confirmDialog } from "../../../../common/components/notify.tsx";
import { Card, Empty, ErrorMessage, Loading, PageHeader } from "../../../../common/components/ui.tsx";
import { currentHash, Link } from "../../../../common/hash-router.tsx";
import { useAsync } from "../../../../common/use-async.ts";
import { inviteLink } from "../../lib/invite-link.ts";
import { A } from "../../strings/admin.ts";
import {
  deleteToken,
  disableToken,
  enableToken,
  listTokens,
  type ServerRecord,
  type TokenRecord,
  type TokenStatus,
  tokenStatus,
} from "../api.ts";
import { SearchFilter, SelectFilter } from "../components/filters.tsx";
import { Badge } from "../components/ui.tsx";
import { formatDate } from "../format.ts";
import { useSelectedServer } from "../servers-store.ts";
import { WithServer } from "./dashboard.tsx";
import { sheetPath, TokenBatchForm } from "./token-batch-form.tsx";
import { TokenCreateForm, TokenEditForm } from "./token-form.tsx";

/** A token's invite page (link, QR code, downloads, printing). */
const invitePath = (token: string) => `/tokens/${encodeURIComponent(token)}/invite`;

const TONE: Record<TokenStatus, "ok" | "warn" | "bad" | "off"> = {
  valid: "ok",
  expired: "warn",
  exhausted: "warn",
  disabled: "bad",
};

/** Uses so far of the limit; a token disabled on Synapse shows "0 (off)" (its limit was set to 0), a revoked MAS token keeps its limit. */
function uses(token: TokenRecord, mas: boolean): string {
  const allowed = token.disabled && !mas ? A.tokens.off : token.uses_allowed === null ? "∞" : String(token.uses_allowed);
  return `${token.completed} / ${allowed}${token.pending ? ` · ${A.tokens.pending(token.pending)}` : ""}`;
}

function TokenList({ serverId, server }: { serverId: string; server: ServerRecord }) {
  const tokens = useAsync(() => listTokens(serverId), [serverId]);
  // On a MAS server disabling is MAS's revoke, which MAS can undo; MAS deletes no token (issue 23).
  const mas = server.kind === "mas";
  const statusNames = mas ? A.tokens.statusMas : A.tokens.status;
  const [status, setStatus] = useState<"all" | TokenStatus>("all");
  const [search, setSearch] = useState("");
  const [editing, setEditing] = useState<string | null>(null);
  const [created, setCreated] = useState<TokenRecord | null>(null);
  // The dashboard's "New token" shortcut opens the form at once (`#/tokens?new=1`).
  const [showCreate, setShowCreate] = useState(() => currentHash().query.has("new"));
  const [showBatch, setShowBatch] = useState(false);

  const replace = (next: TokenRecord) => tokens.setData((list) => (list ?? []).map((t) => (t.token === next.token ? next : t)));
  const disable = async (token: TokenRecord) => {
    const ok = await confirmDialog({
      title: mas ? A.tokens.revokeTitle(token.token) : A.tokens.disableTitle(token.token),
      text: mas ? A.tokens.revokeText : A.tokens.disableText,
      confirmLabel: mas ? A.tokens.revoke : A.tokens.disable,
    });
    if (!ok) return;
    const result = await attempt(
      mas ? A.tokens.revoke : A.tokens.disable,
      () => disableToken(serverId, token.token),
      mas ? A.tokens.revoked(token.token) : A.tokens.disabled(token.token),
    );
    if (result) replace(result);
  };
  const unrevoke = async (token: TokenRecord) => {
    const result = await attempt(A.tokens.unrevoke, () => enableToken(serverId, token.token), A.tokens.unrevoked(token.token));
    if (result) replace(result);
  };
  const remove = async (token: TokenRecord) => {
    const ok = await confirmDialog({
      title: A.tokens.deleteTitle(token.token),
      text: A.tokens.deleteText,
      confirmLabel: A.common.delete,
      danger: true,
    });
    if (!ok) return;
    const result = await attempt(A.common.delete, () => deleteToken(serverId, token.token), A.tokens.deleted(token.token));
    if (result) tokens.setData((list) => (list ?? []).filter((t) => t.token !== token.token));
  };

  const needle = search.trim().toLowerCase();
  const shown = (tokens.data ?? []).filter(
    (token) =>
      (status === "all" || tokenStatus(token) === status) &&
      (!needle || `${token.token} ${token.label ?? ""} ${token.note ?? ""}`.toLowerCase().includes(needle)),
  );

  return (
    <>
      <PageHeader title={A.tokens.title}>
        <button type="button" class="btn" aria-expanded={showBatch} onClick={() => setShowBatch(!showBatch)}>
          {A.tokens.batch}
        </button>
        <button type="button" class="btn btn-primary" aria-expanded={showCreate} onClick={() => setShowCreate(!showCreate)}>
          {A.tokens.create}
        </button>
      </PageHeader>
      <p class="muted">{mas ? A.tokens.introMas(server.name) : A.tokens.intro(server.name)}</p>
      {mas ? <p class="muted small">{A.tokens.masNoDelete}</p> : null}
      {showCreate ? (
        <Card title={A.tokens.createTitle}>
          <TokenCreateForm
            serverId={serverId}
            mas={mas}
            onCreated={(token) => {
              setCreated(token);
              setShowCreate(false);
              tokens.setData((list) => [token, ...(list ?? []).filter((t) => t.token !== token.token)]);
            }}
          />
        </Card>
      ) : null}
      {showBatch ? (
        <Card title={A.batch.title}>
          <TokenBatchForm serverId={serverId} onDone={() => tokens.reload()} />
        </Card>
      ) : null}
      {created ? (
        <div class="notice notice-ok" role="status" data-testid="token-created">
          <div>
            <strong>{A.tokens.created(created.token)}</strong>
            <span class="block small">{A.tokens.shareHint}</span>
            <code class="block invite-link" data-testid="created-invite-link">
              {inviteLink(server, created.token)}
            </code>
          </div>
          <div class="row-actions">
            <CopyButton text={inviteLink(server, created.token)} label={A.tokens.copyInvite(created.token)}>
              {A.tokens.copyLink}
            </CopyButton>
            <Link href={invitePath(created.token)} class="btn btn-small">
              {A.tokens.showInvite}
            </Link>
          </div>
        </div>
      ) : null}
      {tokens.error ? <ErrorMessage error={tokens.error} title={A.tokens.loadFailed} onRetry={() => tokens.reload()} /> : null}
      <div class="toolbar filters">
        <SelectFilter
          label={A.tokens.filterStatus}
          value={status}
          options={[
            ["all", A.tokens.all],
            ...(["valid", "expired", "exhausted", "disabled"] as const).map((key) => [key, statusNames[key]] as const),
          ]}
          onChange={setStatus}
        />
        <SearchFilter value={search} onInput={setSearch} placeholder={A.tokens.searchPlaceholder} />
      </div>
      {!tokens.data ? (
        tokens.error ? null : (
          <Loading />
        )
      ) : shown.length === 0 ? (
        <Empty title={tokens.data.length === 0 ? A.tokens.none : A.tokens.noMatch} />
      ) : (
        <Card class="flush">
          <table class="table responsive" data-testid="tokens-table">
            <thead>
              <tr>
                <th scope="col">{A.tokens.token}</th>
                <th scope="col">{A.tokens.statusLabel}</th>
                <th scope="col">{A.tokens.uses}</th>
                <th scope="col">{A.tokens.expiry}</th>
                <th scope="col">
                  <span class="visually-hidden">{A.common.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((token) => {
                const state = tokenStatus(token);
                return [
                  <tr key={token.token} data-token={token.token} data-status={state}>
                    <td>
                      <code class="token-code">{token.token}</code>
                      {token.label ? (
                        <Link href={sheetPath(token.label)} class="block" aria-label={A.tokens.sheetOf(token.label)}>
                          {token.label}
                        </Link>
                      ) : null}
                      {token.note ? <span class="block muted small">{token.note}</span> : null}
                    </td>
                    <td data-label={A.tokens.statusLabel}>
                      <Badge tone={TONE[state]} testId="token-status">
                        {statusNames[state]}
                      </Badge>
                    </td>
                    <td data-label={A.tokens.uses}>{uses(token, mas)}</td>
                    <td data-label={A.tokens.expiry}>{token.expiry_time ? formatDate(token.expiry_time) : A.tokens.never}</td>
                    <td class="actions-cell">
                      <div class="row-actions">
                        <CopyButton
                          text={inviteLink(server, token.token)}
                          label={A.tokens.copyInvite(token.token)}
                          testId="copy-invite"
                        >
                          {A.tokens.copyLink}
                        </CopyButton>
                        <Link
                          href={invitePath(token.token)}
                          class="btn btn-small"
                          aria-label={A.tokens.inviteLabel(token.token)}
                          data-testid="open-invite"
                        >
                          {A.tokens.invite}
                        </Link>
                        <button
                          type="button"
                          class="btn btn-small"
                          aria-label={A.tokens.editLabel(token.token)}
                          aria-expanded={editing === token.token}
                          onClick={() => setEditing(editing === token.token ? null : token.token)}
                        >
                          {A.common.edit}
                        </button>
                        {token.disabled ? (
                          mas ? (
                            <button
                              type="button"
                              class="btn btn-small"
                              aria-label={A.tokens.unrevokeLabel(token.token)}
                              onClick={() => unrevoke(token)}
                            >
                              {A.tokens.unrevoke}
                            </button>
                          ) : null
                        ) : (
                          <button
                            type="button"
                            class="btn btn-small"
                            aria-label={mas ? A.tokens.revokeLabel(token.token) : A.tokens.disableLabel(token.token)}
                            onClick={() => disable(token)}
                          >
                            {mas ? A.tokens.revoke : A.tokens.disable}
                          </button>
                        )}
                        {mas ? null : (
                          <button
                            type="button"
                            class="btn btn-small btn-danger-outline"
                            aria-label={A.tokens.deleteLabel(token.token)}
                            onClick={() => remove(token)}
                          >
                            {A.common.delete}
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>,
                  editing === token.token ? (
                    <tr key={`${token.token}-edit`} class="edit-row">
                      <td colSpan={5}>
                        <TokenEditForm
                          serverId={serverId}
                          mas={mas}
                          token={token}
                          onCancel={() => setEditing(null)}
                          onSaved={(next) => {
                            replace(next);
                            setEditing(null);
                          }}
                        />
                      </td>
                    </tr>
                  ) : null,
                ];
              })}
            </tbody>
          </table>
        </Card>
      )}
    </>
  );
}

export function TokensPage() {
  const { server } = useSelectedServer();
  return (
    <WithServer title={A.tokens.title}>
      {(serverId) => (server ? <TokenList key={serverId} serverId={serverId} server={server} /> : null)}
    </WithServer>
  );
}
