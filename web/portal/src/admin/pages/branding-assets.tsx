import { useState } from "preact/hooks";
import { ASSET_LIMITS, ASSET_PURPOSES } from "../../../../../portal/src/contract.ts";
import { attempt, confirmDialog } from "../../../../common/components/notify.tsx";
import { Card } from "../../../../common/components/ui.tsx";
import { relativeApiPath } from "../../lib/paths.ts";
import { A } from "../../strings/admin.ts";
import { type BrandingAsset, type BrandingProfile, deleteAsset, uploadAsset } from "../api.ts";
import { formatBytes } from "../format.ts";

const ACCEPT = "image/png,image/jpeg,image/webp,image/gif,image/x-icon,image/vnd.microsoft.icon,.ico";

/**
 * One image per purpose: upload (replaces the previous one), preview and remove. The size limit is checked here
 * first for a quick answer; the portal checks it again, and the file type by its content.
 */
export function BrandingAssets({ profile, onChanged }: { profile: BrandingProfile; onChanged: () => void }) {
  const [busy, setBusy] = useState<string | null>(null);
  const upload = async (purpose: BrandingAsset["purpose"], input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = "";
    if (!file) return;
    setBusy(purpose);
    const what = A.branding.upload(A.branding.purposes[purpose]);
    const done = await attempt(
      what,
      async () => {
        if (file.size > ASSET_LIMITS[purpose])
          throw new Error(A.branding.tooLarge(formatBytes(file.size), formatBytes(ASSET_LIMITS[purpose])));
        return uploadAsset(profile.id, purpose, file);
      },
      A.branding.uploaded(A.branding.purposes[purpose]),
    );
    setBusy(null);
    if (done) onChanged();
  };
  const remove = async (asset: BrandingAsset) => {
    const ok = await confirmDialog({
      title: A.branding.removeImageTitle(A.branding.purposes[asset.purpose]),
      text: A.branding.removeImageText,
      confirmLabel: A.common.remove,
      danger: true,
    });
    if (!ok) return;
    const done = await attempt(A.common.remove, () => deleteAsset(profile.id, asset.id));
    if (done) onChanged();
  };
  return (
    <Card title={A.branding.images}>
      <p class="hint">{A.branding.imagesHint}</p>
      <ul class="assets">
        {ASSET_PURPOSES.map((purpose) => {
          const asset = profile.assets.find((candidate) => candidate.purpose === purpose);
          const inputId = `asset-${purpose}`;
          return (
            <li key={purpose} class="asset" data-purpose={purpose}>
              <div class="asset-thumb">
                {asset ? <img src={relativeApiPath(asset.url)} alt="" /> : <span aria-hidden="true">—</span>}
              </div>
              <div class="asset-info">
                <strong>{A.branding.purposes[purpose]}</strong>
                <span class="small muted block">
                  {asset ? `${asset.filename} · ${formatBytes(asset.size)}` : A.branding.noImage} ·{" "}
                  {A.branding.maxSize(formatBytes(ASSET_LIMITS[purpose]))}
                </span>
              </div>
              <div class="asset-actions">
                <input
                  id={inputId}
                  class="visually-hidden file-input"
                  type="file"
                  accept={ACCEPT}
                  aria-label={A.branding.upload(A.branding.purposes[purpose])}
                  disabled={busy !== null}
                  onChange={(e) => upload(purpose, e.currentTarget)}
                />
                <label class="btn btn-small file-button" for={inputId} aria-hidden="true">
                  {busy === purpose ? A.branding.uploading : asset ? A.branding.replace : A.branding.choose}
                </label>
                {asset ? (
                  <button
                    type="button"
                    class="btn btn-small btn-danger-outline"
                    aria-label={A.branding.removeImageTitle(A.branding.purposes[purpose])}
                    onClick={() => remove(asset)}
                  >
                    {A.common.remove}
                  </button>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
