import { useState } from "preact/hooks";
import { attempt } from "../../../../common/components/notify.tsx";
import { Card, Empty, ErrorMessage, Field, Loading, PageHeader } from "../../../../common/components/ui.tsx";
import { Link, navigate } from "../../../../common/hash-router.tsx";
import { useAsync } from "../../../../common/use-async.ts";
import { signUpUrl } from "../../lib/paths.ts";
import { A } from "../../strings/admin.ts";
import { createProfile, listProfiles } from "../api.ts";
import { Badge } from "../components/ui.tsx";
import { formatDate } from "../format.ts";

export function BrandingListPage() {
  const profiles = useAsync(() => listProfiles(), []);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);

  const create = async (event: Event) => {
    event.preventDefault();
    if (!name.trim()) return;
    setBusy(true);
    const profile = await attempt(A.branding.create, () => createProfile(name.trim()));
    setBusy(false);
    if (profile) navigate(`/branding/${profile.id}`);
  };

  return (
    <>
      <PageHeader title={A.branding.title}>
        <a class="btn" href={signUpUrl()} target="_blank" rel="noopener">
          {A.branding.viewPublished}
        </a>
      </PageHeader>
      <p class="muted">{A.branding.intro}</p>
      <Card title={A.branding.create}>
        <form class="inline-form" onSubmit={create}>
          <Field label={A.branding.name}>
            {(props) => (
              <input
                {...props}
                type="text"
                maxLength={100}
                value={name}
                onInput={(e) => setName(e.currentTarget.value)}
                required
              />
            )}
          </Field>
          <button type="submit" class="btn btn-primary" disabled={busy || !name.trim()}>
            {A.branding.createSubmit}
          </button>
        </form>
      </Card>
      {profiles.error ? (
        <ErrorMessage error={profiles.error} title={A.branding.loadFailed} onRetry={() => profiles.reload()} />
      ) : null}
      {!profiles.data ? (
        profiles.error ? null : (
          <Loading />
        )
      ) : profiles.data.length === 0 ? (
        <Empty title={A.branding.none}>
          <p>{A.branding.noneText}</p>
        </Empty>
      ) : (
        <Card class="flush">
          <table class="table responsive" data-testid="profiles-table">
            <thead>
              <tr>
                <th scope="col">{A.branding.name}</th>
                <th scope="col">{A.branding.state}</th>
                <th scope="col">{A.branding.version}</th>
                <th scope="col">{A.branding.publishedAt}</th>
              </tr>
            </thead>
            <tbody>
              {profiles.data.map((profile) => (
                <tr key={profile.id} data-profile={profile.name}>
                  <td>
                    <Link href={`/branding/${profile.id}`}>
                      <strong>{profile.name}</strong>
                    </Link>
                  </td>
                  <td data-label={A.branding.state}>
                    <span class="badges">
                      {profile.isActive ? <Badge tone="ok">{A.branding.active}</Badge> : null}
                      {profile.isDraft ? <Badge tone="warn">{A.branding.unpublished}</Badge> : null}
                      {!profile.isActive && !profile.isDraft ? <Badge tone="off">{A.branding.inactive}</Badge> : null}
                    </span>
                  </td>
                  <td data-label={A.branding.version}>{profile.version}</td>
                  <td data-label={A.branding.publishedAt}>{formatDate(profile.publishedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
    </>
  );
}
