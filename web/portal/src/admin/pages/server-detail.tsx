import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { CopyButton } from "../../../../common/components/copy-button.tsx";
import { attempt, confirmDialog, notify } from "../../../../common/components/notify.tsx";
import { Card, ErrorMessage, Field, Loading, PageHeader } from "../../../../common/components/ui.tsx";
import { Link, navigate } from "../../../../common/hash-router.tsx";
import { useAsync } from "../../../../common/use-async.ts";
import { signUpUrl } from "../../lib/paths.ts";
import { A } from "../../strings/admin.ts";
import {
  deleteServer,
  getServer,
  type HomeserverDiagnostics,
  rotateMasSecret,
  rotateServerToken,
  type ServerAction,
  type ServerRecord,
  serverAction,
} from "../api.ts";
import { Check, ErrorList, Facts } from "../components/ui.tsx";
import { formatDate } from "../format.ts";
import { loadServers } from "../servers-store.ts";
import { ServerStatus } from "./server-status.tsx";

/**
 * Each check of the homeserver diagnostics with what it means; `msc3861Detected` is good when false for a Synapse
 * server and when true for a MAS server, whose other checks are about MAS. Discovery says which kind fits.
 */
export function DiagnosticsResult({ result }: { result: HomeserverDiagnostics }) {
  const mas = result.kind === "mas";
  const checks: [keyof HomeserverDiagnostics, boolean][] = [
    ["homeserverReachable", result.homeserverReachable],
    ["adminApiReachable", result.adminApiReachable],
    ["tokenEndpointsAvailable", result.tokenEndpointsAvailable],
    ["registrationFlowAvailable", result.registrationFlowAvailable],
    ["registrationEnabled", result.registrationEnabled],
    ["tokenRegistrationSupported", result.tokenRegistrationSupported],
    ["msc3861Detected", mas ? result.msc3861Detected : !result.msc3861Detected],
  ];
  const labels = mas ? A.diag.checksMas : A.diag.checks;
  const ok = checks.every(([, passed]) => passed) && result.errors.length === 0;
  return (
    <div data-testid="diagnostics-result" data-ok={ok}>
      <p class={ok ? "result-ok" : "result-bad"} role="status">
        {ok ? A.diag.allGood : A.diag.problems(result.errors.length || checks.filter(([, passed]) => !passed).length)}
        <span class="muted small"> · {formatDate(result.checkedAt)}</span>
      </p>
      <ul class="checks">
        {checks.map(([key, passed]) => (
          <Check key={key} ok={passed} label={labels[key as keyof typeof labels]} />
        ))}
        <Check
          ok={true}
          label={mas ? A.diag.masServerName : A.diag.serverName}
          detail={
            mas && result.mas?.version ? `${result.serverName} · ${A.diag.masVersion(result.mas.version)}` : result.serverName
          }
        />
      </ul>
      {result.detectedKind ? (
        <p class={result.detectedKind === result.kind ? "muted small" : "notice"} data-testid="detected-kind">
          {A.diag.detected(result.detectedKind, result.authIssuer)}
        </p>
      ) : null}
      <ErrorList errors={result.errors} title={A.diag.errors} />
    </div>
  );
}

/** Replaces a MAS server's OAuth client secret (write-only). */
function RotateMasSecret({ server, onDone }: { server: ServerRecord; onDone: () => void }) {
  const [secret, setSecret] = useState("");
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="inline-form"
      onSubmit={async (event) => {
        event.preventDefault();
        if (!secret.trim()) return;
        setBusy(true);
        const done = await attempt(
          A.servers.rotateMasSecret,
          () => rotateMasSecret(server.id, secret.trim()),
          A.servers.rotatedMasSecret,
        );
        setBusy(false);
        if (done) {
          setSecret("");
          onDone();
        }
      }}
    >
      <Field label={A.servers.newMasSecret}>
        {(props) => (
          <input {...props} type="password" autocomplete="off" value={secret} onInput={(e) => setSecret(e.currentTarget.value)} />
        )}
      </Field>
      <button type="submit" class="btn" disabled={busy || !secret.trim()}>
        {A.servers.rotateMasSecret}
      </button>
    </form>
  );
}

function RotateToken({ server, onDone }: { server: ServerRecord; onDone: () => void }) {
  const [token, setToken] = useState("");
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="inline-form"
      onSubmit={async (event) => {
        event.preventDefault();
        if (!token.trim()) return;
        setBusy(true);
        const done = await attempt(A.servers.rotate, () => rotateServerToken(server.id, token.trim()), A.servers.rotated);
        setBusy(false);
        if (done) {
          setToken("");
          onDone();
        }
      }}
    >
      <Field label={A.servers.newAdminToken}>
        {(props) => (
          <input {...props} type="password" autocomplete="off" value={token} onInput={(e) => setToken(e.currentTarget.value)} />
        )}
      </Field>
      <button type="submit" class="btn" disabled={busy || !token.trim()}>
        {A.servers.rotate}
      </button>
    </form>
  );
}

export function ServerDetailPage({ serverId }: { serverId: string }) {
  const server = useAsync(() => getServer(serverId), [serverId]);
  const [diagnostics, setDiagnostics] = useState<HomeserverDiagnostics | null>(null);
  const [busy, setBusy] = useState<ServerAction | null>(null);

  if (server.error) return <ErrorMessage error={server.error} onRetry={() => server.reload()} />;
  if (!server.data) return <Loading />;
  const s = server.data;

  const act = async (action: ServerAction) => {
    setBusy(action);
    const result = await attempt(A.servers.actions[action], () => serverAction(s.id, action));
    setBusy(null);
    if (!result) return;
    server.setData(result.server);
    if (result.diagnostics) setDiagnostics(result.diagnostics);
    else notify.ok(A.servers.done[action]);
    void loadServers();
  };

  const remove = async () => {
    const ok = await confirmDialog({
      title: A.servers.deleteTitle(s.name),
      text: A.servers.deleteText,
      confirmLabel: A.common.delete,
      danger: true,
    });
    if (!ok) return;
    const done = await attempt(A.common.delete, () => deleteServer(s.id), A.servers.deleted(s.name));
    if (done) {
      await loadServers();
      navigate("/servers");
    }
  };
  const deletable = !s.enabled && !s.isDefault;
  const pageUrl = signUpUrl({ server: s.slug });

  return (
    <>
      <PageHeader title={s.name} crumb={<Link href="/servers">{A.nav.servers}</Link>}>
        <Link href={`/servers/${s.id}/edit`} class="btn">
          {A.common.edit}
        </Link>
        {s.enabled ? (
          <button type="button" class="btn" disabled={busy !== null} onClick={() => act("disable")}>
            {A.servers.actions.disable}
          </button>
        ) : (
          <button type="button" class="btn btn-primary" disabled={busy !== null} onClick={() => act("enable")}>
            {A.servers.actions.enable}
          </button>
        )}
        {s.isDefault ? null : (
          <button type="button" class="btn" disabled={busy !== null} onClick={() => act("set_default")}>
            {A.servers.actions.set_default}
          </button>
        )}
      </PageHeader>
      <div class="grid">
        <Card title={A.servers.details}>
          <Facts
            items={[
              [A.servers.status, <ServerStatus server={s} />],
              [A.servers.kind, s.kind === "mas" ? A.servers.kindMas : A.servers.kindSynapse],
              [A.servers.slug, <code>{s.slug}</code>],
              [A.servers.serverName, <code>{s.serverName}</code>],
              [A.servers.internalUrl, <code>{s.internalUrl}</code>],
              [A.servers.publicUrl, <code>{s.publicUrl}</code>],
              ...(s.kind === "mas"
                ? ([
                    [A.servers.masUrl, <code>{s.masUrl}</code>],
                    [A.servers.masPublicUrl, s.masPublicUrl ? <code>{s.masPublicUrl}</code> : null],
                    [A.servers.masClientId, <code>{s.masClientId}</code>],
                  ] as [string, ComponentChildren][])
                : []),
              [A.servers.publicDomain, s.publicDomain],
              [A.servers.routePrefix, s.routePrefix],
              [A.servers.notes, s.notes],
              [A.servers.createdAt, formatDate(s.createdAt)],
            ]}
          />
          <h3>{A.servers.signUpPage}</h3>
          <p class="link-line">
            <a href={pageUrl} target="_blank" rel="noopener">
              {pageUrl}
            </a>{" "}
            <CopyButton text={pageUrl} label={A.servers.copyPageLink} />
          </p>
        </Card>
        <Card
          title={A.diag.title}
          actions={
            <button type="button" class="btn btn-primary" disabled={busy !== null} onClick={() => act("diagnostics")}>
              {busy === "diagnostics" ? A.diag.running : A.diag.run}
            </button>
          }
        >
          {diagnostics ? (
            <DiagnosticsResult result={diagnostics} />
          ) : s.lastDiagAt ? (
            <p class="muted">{A.diag.last(s.lastDiagOk === true, formatDate(s.lastDiagAt))}</p>
          ) : (
            <p class="notice" data-testid="never-checked">
              {A.servers.neverCheckedText}
            </p>
          )}
        </Card>
        {s.kind === "mas" ? (
          <Card title={A.servers.masClientSecret}>
            <p class="hint">{A.servers.masSecretWriteOnly}</p>
            <RotateMasSecret server={s} onDone={() => server.reload(true)} />
          </Card>
        ) : (
          <Card title={A.servers.adminToken}>
            <p class="hint">
              {A.servers.tokenWriteOnly} {A.servers.rotateHint}
            </p>
            <RotateToken server={s} onDone={() => server.reload(true)} />
          </Card>
        )}
        <Card title={A.servers.dangerZone}>
          <p class="hint">{deletable ? A.servers.deleteHint : A.servers.deleteBlocked}</p>
          <div class="button-row">
            <button type="button" class="btn btn-danger-outline" disabled={!deletable} onClick={remove}>
              {A.servers.delete}
            </button>
          </div>
        </Card>
      </div>
    </>
  );
}
