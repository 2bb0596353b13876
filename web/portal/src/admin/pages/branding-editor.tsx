import { useEffect, useState } from "preact/hooks";
import { attempt, confirmDialog, notify } from "../../../../common/components/notify.tsx";
import { ErrorMessage, Loading, PageHeader } from "../../../../common/components/ui.tsx";
import { Link, navigate } from "../../../../common/hash-router.tsx";
import { useAsync } from "../../../../common/use-async.ts";
import type { BrandingSettings, PublicBranding } from "../../api/public-types.ts";
import { A } from "../../strings/admin.ts";
import { type BrandingProfile, deleteProfile, getProfile, profileAction, updateProfile } from "../api.ts";
import { Badge } from "../components/ui.tsx";
import { formatDate } from "../format.ts";
import { useSelectedServer } from "../servers-store.ts";
import { BrandingAssets } from "./branding-assets.tsx";
import { BrandingFields, type Draft } from "./branding-fields.tsx";
import { BrandingPreview } from "./branding-preview.tsx";

const SETTING_KEYS: (keyof BrandingSettings)[] = [
  "appTitle",
  "subtitle",
  "welcomeHeadline",
  "registrationText",
  "successText",
  "footerText",
  "usernameHint",
  "logoAlt",
  "primaryColor",
  "accentColor",
  "backgroundColor",
  "textColor",
  "colorScheme",
  "layoutPreset",
  "locale",
  "privacyPolicyUrl",
  "termsUrl",
  "imprintUrl",
  "supportUrl",
  "contactEmail",
  "clientLinks",
];
const NULLABLE = new Set<keyof BrandingSettings>(["privacyPolicyUrl", "termsUrl", "imprintUrl", "supportUrl", "contactEmail"]);

const draftOf = (profile: BrandingProfile): Draft => {
  const draft = { name: profile.name } as Draft;
  for (const key of SETTING_KEYS) (draft as unknown as Record<string, unknown>)[key] = structuredClone(profile[key]);
  return draft;
};

/** The fields that differ from the saved profile, as a PUT body (an emptied optional link is null: back to unset). */
function changes(draft: Draft, profile: BrandingProfile): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (draft.name.trim() !== profile.name) body.name = draft.name.trim();
  for (const key of SETTING_KEYS) {
    const value = draft[key];
    if (JSON.stringify(value) === JSON.stringify(profile[key])) continue;
    body[key] = NULLABLE.has(key) && (value === "" || value === null) ? null : value;
  }
  return body;
}

export function BrandingEditorPage({ profileId }: { profileId: string }) {
  const profile = useAsync(() => getProfile(profileId), [profileId]);
  const { server } = useSelectedServer();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  useEffect(() => {
    if (profile.data && draft === null) setDraft(draftOf(profile.data));
  }, [profile.data]);

  if (profile.error && !profile.data) return <ErrorMessage error={profile.error} onRetry={() => profile.reload()} />;
  if (!profile.data || !draft) return <Loading />;
  const saved = profile.data;
  const pending = changes(draft, saved);
  const dirty = Object.keys(pending).length > 0;
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => (d ? { ...d, [key]: value } : d));

  /** Saves the pending changes; the form keeps what was typed when the portal refuses (the message says why). */
  const save = async (): Promise<BrandingProfile | undefined> => {
    setError(null);
    if (!dirty) return saved;
    try {
      const next = await updateProfile(saved.id, pending);
      profile.setData(next);
      setDraft(draftOf(next));
      return next;
    } catch (failure) {
      setError(failure as Error);
      return undefined;
    }
  };
  const run = async (task: () => Promise<unknown>) => {
    setBusy(true);
    await task();
    setBusy(false);
  };
  const onSave = () =>
    run(async () => {
      if (await save()) notify.ok(A.branding.saved);
    });
  const onPublish = () =>
    run(async () => {
      if (!(await save())) return;
      const next = await attempt(A.branding.publish, () => profileAction(saved.id, "publish"));
      if (next) {
        profile.setData(next);
        setDraft(draftOf(next));
        notify.ok(A.branding.published(next.version));
      }
    });
  const onReset = async () => {
    const ok = await confirmDialog({
      title: A.branding.resetTitle,
      text: A.branding.resetText,
      confirmLabel: A.branding.reset,
      danger: true,
    });
    if (!ok) return;
    await run(async () => {
      const next = await attempt(A.branding.reset, () => profileAction(saved.id, "reset"), A.branding.wasReset);
      if (next) {
        profile.setData(next);
        setDraft(draftOf(next));
      }
    });
  };
  const onDelete = async () => {
    const ok = await confirmDialog({
      title: A.branding.deleteTitle(saved.name),
      text: saved.isActive ? A.branding.deleteActiveText : A.branding.deleteText,
      confirmLabel: A.common.delete,
      danger: true,
    });
    if (!ok) return;
    const done = await attempt(A.common.delete, () => deleteProfile(saved.id), A.branding.deleted(saved.name));
    if (done) navigate("/branding");
  };

  const assetUrl = (purpose: string) => saved.assets.find((asset) => asset.purpose === purpose)?.url ?? null;
  const preview: PublicBranding = {
    ...draft,
    profileId: saved.id,
    version: saved.version,
    publishedAt: saved.publishedAt,
    logoUrl: assetUrl("logo"),
    faviconUrl: assetUrl("favicon"),
    heroUrl: assetUrl("hero"),
    backgroundUrl: assetUrl("background"),
  };

  return (
    <>
      <PageHeader title={saved.name} crumb={<Link href="/branding">{A.nav.branding}</Link>}>
        <button type="button" class="btn" disabled={busy || !dirty} onClick={onSave}>
          {A.branding.saveDraft}
        </button>
        <button type="button" class="btn btn-primary" disabled={busy} onClick={onPublish}>
          {A.branding.publish}
        </button>
      </PageHeader>
      <p class="status-line" data-testid="profile-state">
        {saved.isActive ? <Badge tone="ok">{A.branding.active}</Badge> : <Badge tone="off">{A.branding.inactive}</Badge>}{" "}
        {saved.isDraft || dirty ? <Badge tone="warn">{dirty ? A.branding.unsaved : A.branding.unpublished}</Badge> : null}{" "}
        <span class="muted small">
          {A.branding.versionInfo(saved.version, saved.publishedAt ? formatDate(saved.publishedAt) : null)}
        </span>
      </p>
      {error ? <ErrorMessage error={error} title={A.branding.saveFailed} focus /> : null}
      <div class="editor">
        <div class="editor-form">
          <BrandingFields draft={draft} set={set} />
          <BrandingAssets profile={saved} onChanged={() => profile.reload(true)} />
          <section class="card danger-card" aria-labelledby="branding-danger">
            <h2 id="branding-danger">{A.branding.more}</h2>
            <p class="hint">{A.branding.resetHint}</p>
            <div class="button-row">
              <button type="button" class="btn btn-danger-outline" disabled={busy} onClick={onReset}>
                {A.branding.reset}
              </button>
              <button type="button" class="btn btn-danger-outline" disabled={busy} onClick={onDelete}>
                {A.branding.deleteProfile}
              </button>
            </div>
          </section>
        </div>
        <aside class="editor-preview" aria-label={A.branding.preview}>
          <h2>{A.branding.preview}</h2>
          <BrandingPreview branding={preview} serverName={server?.serverName ?? "example.org"} />
        </aside>
      </div>
    </>
  );
}
