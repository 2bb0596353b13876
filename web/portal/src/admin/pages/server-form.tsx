import { useEffect, useState } from "preact/hooks";
import { notify } from "../../../../common/components/notify.tsx";
import { Card, ErrorMessage, Field, Loading, PageHeader } from "../../../../common/components/ui.tsx";
import { Link, navigate } from "../../../../common/hash-router.tsx";
import { useAsync } from "../../../../common/use-async.ts";
import { ApiError } from "../../api/client.ts";
import { A } from "../../strings/admin.ts";
import { createServer, getServer, listProfiles, SERVER_CHECK_CODES, type ServerRecord, updateServer } from "../api.ts";
import { loadServers } from "../servers-store.ts";

type Values = Record<
  | "kind"
  | "masUrl"
  | "masPublicUrl"
  | "masClientId"
  | "masClientSecret"
  | "name"
  | "slug"
  | "serverName"
  | "internalUrl"
  | "publicUrl"
  | "adminToken"
  | "notes"
  | "publicDomain"
  | "routePrefix"
  | "brandingProfileId"
  | "registrationMode"
  | "managedMode",
  string
>;

const EMPTY: Values = {
  kind: "synapse",
  masUrl: "",
  masPublicUrl: "",
  masClientId: "",
  masClientSecret: "",
  name: "",
  slug: "",
  serverName: "",
  internalUrl: "",
  publicUrl: "",
  adminToken: "",
  notes: "",
  publicDomain: "",
  routePrefix: "",
  brandingProfileId: "",
  registrationMode: "",
  managedMode: "",
};

const OPTIONAL = [
  "notes",
  "publicDomain",
  "routePrefix",
  "brandingProfileId",
  "registrationMode",
  "managedMode",
  "masPublicUrl",
] as const;

/** Fields sent only with kind mas; the secret only when typed (it is write-only). */
const MAS_FIELDS = ["masUrl", "masPublicUrl", "masClientId"] as const;

const slugOf = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 100);

function valuesOf(server: ServerRecord): Values {
  return {
    ...EMPTY,
    kind: server.kind,
    masUrl: server.masUrl ?? "",
    masPublicUrl: server.masPublicUrl ?? "",
    masClientId: server.masClientId ?? "",
    name: server.name,
    slug: server.slug,
    serverName: server.serverName,
    internalUrl: server.internalUrl,
    publicUrl: server.publicUrl,
    notes: server.notes ?? "",
    publicDomain: server.publicDomain ?? "",
    routePrefix: server.routePrefix ?? "",
    brandingProfileId: server.brandingProfileId ?? "",
    registrationMode: server.registrationMode ?? "",
    managedMode: server.managedMode ?? "",
  };
}

/** Scheme, host and port of a URL as typed; undefined while it is not a URL yet. */
function originOf(url: string): string | undefined {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return undefined;
  }
}

/**
 * Client-side checks mirroring the API's (servers.schema.ts); the API's answer is shown too when it refuses.
 * `needsToken`: a Synapse server created, moved to another origin, or without a stored token (the API asks for it then);
 * `needsSecret`: a MAS server created, or its MAS host or client changed.
 */
function problems(values: Values, needsToken: boolean, needsSecret: boolean): Partial<Record<keyof Values, string>> {
  const found: Partial<Record<keyof Values, string>> = {};
  if (!values.name.trim()) found.name = A.form.required;
  if (!/^[a-z0-9-]+$/.test(values.slug)) found.slug = A.servers.slugRule;
  if (!values.serverName.trim()) found.serverName = A.form.required;
  const urls = ["internalUrl", "publicUrl", ...(values.kind === "mas" ? (["masUrl"] as const) : [])] as const;
  for (const key of urls) {
    if (!/^https?:\/\/\S+$/i.test(values[key].trim())) found[key] = A.servers.urlRule;
  }
  if (values.kind === "mas") {
    if (values.masPublicUrl.trim() && !/^https?:\/\/\S+$/i.test(values.masPublicUrl.trim()))
      found.masPublicUrl = A.servers.urlRule;
    if (!values.masClientId.trim()) found.masClientId = A.form.required;
    if (needsSecret && !values.masClientSecret.trim()) found.masClientSecret = A.form.required;
  }
  if (needsToken && !values.adminToken.trim()) found.adminToken = A.form.required;
  if (values.routePrefix && !/^(\/[A-Za-z0-9._~-]+)+$/.test(values.routePrefix)) found.routePrefix = A.servers.routePrefixRule;
  return found;
}

/** Create (no `serverId`) or edit a managed server. */
export function ServerFormPage({ serverId }: { serverId?: string }) {
  const creating = serverId === undefined;
  const existing = useAsync(() => (serverId ? getServer(serverId) : Promise.resolve(undefined)), [serverId]);
  const profiles = useAsync(() => listProfiles(), []);
  const [values, setValues] = useState<Values>(EMPTY);
  const [slugTouched, setSlugTouched] = useState(!creating);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  /** The portal's check of the new server failed: the admin may save it anyway, unchecked. */
  const [checkFailed, setCheckFailed] = useState(false);

  useEffect(() => {
    if (existing.data) setValues(valuesOf(existing.data));
  }, [existing.data]);

  if (!creating && existing.error) return <ErrorMessage error={existing.error} onRetry={() => existing.reload()} />;
  if (!creating && !existing.data) return <Loading />;

  // The stored admin token only goes to the origin it was given for: a URL on another host needs that host's token.
  const storedOrigin = existing.data ? originOf(existing.data.internalUrl) : undefined;
  const typedOrigin = originOf(values.internalUrl);
  const mas = values.kind === "mas";
  const moved =
    !creating && !mas && existing.data?.hasAdminToken === true && typedOrigin !== undefined && typedOrigin !== storedOrigin;
  // A Synapse server needs a token; one that was a MAS server without one needs it now.
  const tokenMissing = !creating && !mas && existing.data?.hasAdminToken === false;
  const needsToken = !mas && (creating || moved || tokenMissing);
  // Likewise the MAS client secret: only sent to the MAS origin and client it was given for.
  const storedMas = existing.data?.kind === "mas" ? existing.data : undefined;
  const needsSecret =
    mas &&
    (creating ||
      storedMas === undefined ||
      originOf(values.masUrl) !== originOf(storedMas.masUrl ?? "") ||
      values.masClientId.trim() !== (storedMas.masClientId ?? ""));
  const found = submitted ? problems(values, needsToken, needsSecret) : {};
  const set = (key: keyof Values) => (event: Event) => {
    const value = (event.currentTarget as HTMLInputElement).value;
    setValues((previous) => {
      const next = { ...previous, [key]: value };
      if (key === "name" && !slugTouched) next.slug = slugOf(value);
      return next;
    });
    if (key === "slug") setSlugTouched(true);
  };

  const save = async (saveAnyway: boolean) => {
    setSubmitted(true);
    if (Object.keys(problems(values, needsToken, needsSecret)).length > 0) return;
    setBusy(true);
    setError(null);
    setCheckFailed(false);
    try {
      const trimmed = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value.trim()])) as Values;
      let saved: ServerRecord;
      if (creating) {
        const body: Record<string, unknown> = {
          kind: trimmed.kind,
          name: trimmed.name,
          slug: trimmed.slug,
          serverName: trimmed.serverName,
          internalUrl: trimmed.internalUrl,
          publicUrl: trimmed.publicUrl,
        };
        if (mas) {
          Object.assign(body, {
            masUrl: trimmed.masUrl,
            masClientId: trimmed.masClientId,
            masClientSecret: trimmed.masClientSecret,
          });
          if (trimmed.masPublicUrl) body.masPublicUrl = trimmed.masPublicUrl;
        } else {
          body.adminToken = trimmed.adminToken;
        }
        for (const key of ["notes", "publicDomain", "routePrefix", "brandingProfileId"] as const) {
          if (trimmed[key]) body[key] = trimmed[key];
        }
        // The server picker stays where the admin left it: a new server is not selected for them.
        saved = (await createServer(body, saveAnyway)).server;
      } else {
        const before = valuesOf(existing.data as ServerRecord);
        const body: Record<string, unknown> = {};
        for (const key of Object.keys(trimmed) as (keyof Values)[]) {
          if (key === "adminToken" || key === "masClientSecret" || trimmed[key] === before[key]) continue;
          if (!mas && (MAS_FIELDS as readonly string[]).includes(key)) continue;
          body[key] = (OPTIONAL as readonly string[]).includes(key) && trimmed[key] === "" ? null : trimmed[key];
        }
        if (needsToken) body.adminToken = trimmed.adminToken;
        if (mas && trimmed.masClientSecret) body.masClientSecret = trimmed.masClientSecret;
        if (Object.keys(body).length === 0) {
          navigate(`/servers/${serverId}`);
          return;
        }
        saved = await updateServer(serverId as string, body);
      }
      await loadServers();
      notify.ok(
        creating ? (saveAnyway ? A.servers.createdUnchecked(saved.name) : A.servers.created(saved.name)) : A.common.saved,
      );
      navigate(`/servers/${saved.id}`);
    } catch (failure) {
      setError(failure as Error);
      setCheckFailed(
        creating &&
          failure instanceof ApiError &&
          failure.status === 422 &&
          (SERVER_CHECK_CODES as readonly (string | undefined)[]).includes(failure.code),
      );
      setBusy(false);
    }
  };
  const submit = (event: Event) => {
    event.preventDefault();
    void save(false);
  };

  const text = (key: keyof Values, label: string, hint?: string, props: Record<string, unknown> = {}) => (
    <Field label={label} hint={hint} error={found[key]}>
      {(control) => <input {...control} type="text" value={values[key]} onInput={set(key)} {...props} />}
    </Field>
  );

  return (
    <>
      <PageHeader
        title={creating ? A.servers.add : A.servers.editTitle(existing.data?.name ?? "")}
        crumb={<Link href="/servers">{A.nav.servers}</Link>}
      />
      <form onSubmit={submit} noValidate class="form-page">
        {error ? (
          <ErrorMessage
            error={error}
            title={
              checkFailed
                ? mas
                  ? A.servers.checkFailedMas
                  : A.servers.checkFailed
                : creating
                  ? A.servers.createFailed
                  : A.servers.saveFailed
            }
            focus
          />
        ) : null}
        {checkFailed ? (
          <div class="notice save-anyway" data-testid="save-anyway">
            <p>{mas ? A.servers.saveAnywayTextMas : A.servers.saveAnywayText}</p>
            <button type="button" class="btn" disabled={busy} onClick={() => void save(true)}>
              {A.servers.saveAnyway}
            </button>
          </div>
        ) : null}
        <Card title={A.servers.identity}>
          <div class="form-grid">
            {text("name", A.servers.name, undefined, { maxLength: 200, required: true })}
            {text("slug", A.servers.slug, A.servers.slugHint, { maxLength: 100, required: true, spellcheck: false })}
            {text("serverName", A.servers.serverName, A.servers.serverNameHint, {
              maxLength: 500,
              required: true,
              spellcheck: false,
            })}
          </div>
        </Card>
        <Card title={A.servers.connection}>
          <Field label={A.servers.kind} hint={A.servers.kindHint}>
            {(control) => (
              <select {...control} value={values.kind} onChange={set("kind")} data-testid="server-kind">
                <option value="synapse">{A.servers.kindSynapse}</option>
                <option value="mas">{A.servers.kindMas}</option>
              </select>
            )}
          </Field>
          <div class="form-grid">
            {text("internalUrl", A.servers.internalUrl, A.servers.internalUrlHint, { type: "url", spellcheck: false })}
            {text("publicUrl", A.servers.publicUrl, A.servers.publicUrlHint, { type: "url", spellcheck: false })}
          </div>
          {mas ? null : needsToken ? (
            <Field
              label={creating || tokenMissing ? A.servers.adminToken : A.servers.movedAdminToken}
              hint={creating || tokenMissing ? A.servers.adminTokenHint : A.servers.movedAdminTokenHint}
              error={found.adminToken}
            >
              {(control) => (
                <input
                  {...control}
                  type="password"
                  autocomplete="off"
                  value={values.adminToken}
                  onInput={set("adminToken")}
                  maxLength={10000}
                />
              )}
            </Field>
          ) : (
            <p class="hint">{A.servers.tokenOnDetail}</p>
          )}
        </Card>
        {mas ? (
          <Card title={A.servers.masClient}>
            <p class="hint card-intro">{A.servers.masClientHint}</p>
            <div class="form-grid">
              {text("masUrl", A.servers.masUrl, A.servers.masUrlHint, { type: "url", spellcheck: false })}
              {text("masPublicUrl", A.servers.masPublicUrl, A.servers.masPublicUrlHint, { type: "url", spellcheck: false })}
              {text("masClientId", A.servers.masClientId, undefined, { spellcheck: false, maxLength: 255 })}
              <Field
                label={A.servers.masClientSecret}
                hint={
                  creating ? A.servers.masClientSecretHint : needsSecret ? A.servers.masSecretNeeded : A.servers.masSecretKeep
                }
                error={found.masClientSecret}
              >
                {(control) => (
                  <input
                    {...control}
                    type="password"
                    autocomplete="off"
                    value={values.masClientSecret}
                    onInput={set("masClientSecret")}
                    maxLength={10000}
                  />
                )}
              </Field>
            </div>
          </Card>
        ) : null}
        <Card title={A.servers.publicPage}>
          <div class="form-grid">
            {text("publicDomain", A.servers.publicDomain, A.servers.publicDomainHint, { spellcheck: false })}
            {text("routePrefix", A.servers.routePrefix, A.servers.routePrefixHint, { spellcheck: false })}
            <Field label={A.servers.branding} hint={A.servers.brandingHint}>
              {(control) => (
                <select {...control} value={values.brandingProfileId} onChange={set("brandingProfileId")}>
                  <option value="">{A.servers.brandingActive}</option>
                  {(profiles.data ?? []).map((profile) => (
                    <option key={profile.id} value={profile.id}>
                      {profile.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {!creating ? (
              <>
                <Field label={A.servers.registrationMode}>
                  {(control) => (
                    <select {...control} value={values.registrationMode} onChange={set("registrationMode")}>
                      <option value="">{A.servers.modeToken}</option>
                      <option value="closed">{A.servers.modeClosed}</option>
                    </select>
                  )}
                </Field>
                <Field label={A.servers.managedMode} hint={A.servers.managedModeHint}>
                  {(control) => (
                    <select {...control} value={values.managedMode} onChange={set("managedMode")}>
                      <option value="">{A.servers.managedAuto}</option>
                      <option value="managed">{A.servers.managedManaged}</option>
                      <option value="guided">{A.servers.managedGuided}</option>
                    </select>
                  )}
                </Field>
              </>
            ) : null}
          </div>
          {profiles.error ? <ErrorMessage error={profiles.error} title={A.branding.loadFailed} /> : null}
          <Field label={A.servers.notes}>
            {(control) => <textarea {...control} rows={3} maxLength={5000} value={values.notes} onInput={set("notes")} />}
          </Field>
        </Card>
        <div class="form-actions">
          <button type="submit" class="btn btn-primary" disabled={busy}>
            {creating ? (busy ? (mas ? A.servers.checkingMas : A.servers.checking) : A.servers.createSubmit) : A.common.save}
          </button>
          {creating ? <span class="hint">{mas ? A.servers.checkHintMas : A.servers.checkHint}</span> : null}
          <Link href={creating ? "/servers" : `/servers/${serverId}`} class="btn">
            {A.common.cancel}
          </Link>
        </div>
      </form>
    </>
  );
}
