import { useEffect, useId, useRef, useState } from "preact/hooks";
import { notify } from "../../../common/components/notify.tsx";
import { ErrorMessage, Loading } from "../../../common/components/ui.tsx";
import { navigate } from "../../../common/hash-router.tsx";
import { useAsync } from "../../../common/use-async.ts";
import { confirmSplit, splitPreview } from "../api/bridges.ts";
import type { Bridge, SplitBy, SplitProposal } from "../api/types.ts";
import { S } from "../strings.ts";

type Proposed = SplitProposal["bridges"][number];

function ProposedRow({ bridge, max }: { bridge: Proposed; max: number }) {
  return (
    <li class="list-row split-row" data-testid="split-bridge">
      <div class="row-main">
        <strong>{bridge.name}</strong>
        <span class="muted small">{bridge.remainder ? S.limits.splitRest : bridge.groups.map((g) => g.name).join(", ")}</span>
      </div>
      <span class={`split-count ${bridge.fits ? "" : "error-text"}`} data-testid="split-count">
        {S.limits.splitDevices(bridge.deviceCount, max)}
        {bridge.fits ? "" : ` · ${S.limits.overLimit}`}
      </span>
    </li>
  );
}

/**
 * The split of a bridge as a modal: by area or label, the proposal (each new bridge's name, areas and device count
 * against the limit, areas too big for one bridge), then confirm. Nothing is created before the confirm; the
 * original bridge is stopped (kept) unless the user keeps it running.
 */
export function SplitDialog({ bridge, onClose }: { bridge: Bridge; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [by, setBy] = useState<SplitBy>("area");
  const [keep, setKeep] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Error | null>(null);
  const proposal = useAsync((signal) => splitPreview(bridge.id, by, signal), [bridge.id, by]);

  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    dialog?.showModal();
    return () => {
      if (dialog?.open) dialog.close();
      opener?.focus?.();
    };
  }, []);

  const data = proposal.data;
  const confirm = async (event: Event) => {
    event.preventDefault();
    if (!data) return;
    setBusy(true);
    setFailure(null);
    try {
      const result = await confirmSplit(bridge.id, { by, token: data.token, keepOriginalRunning: keep });
      notify.ok(S.limits.splitDone(result.created.length));
      onClose();
      navigate("/bridges");
    } catch (error) {
      setFailure(error as Error);
      proposal.reload(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={ref}
      class="dialog dialog-wide"
      aria-labelledby={titleId}
      data-testid="split-dialog"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <form class="dialog-form" onSubmit={confirm} noValidate>
        <div class="dialog-head">
          <h2 id={titleId}>{S.limits.splitTitle(bridge.name)}</h2>
          <p class="muted small">{S.limits.splitText}</p>
        </div>
        <div class="dialog-body">
          <fieldset class="chips">
            <legend>{S.limits.splitBy}</legend>
            {(["area", "label"] as const).map((kind) => (
              <label key={kind} class={`chip ${by === kind ? "on" : ""}`}>
                <input type="radio" name="split-by" checked={by === kind} onChange={() => setBy(kind)} />
                {kind === "area" ? S.limits.byArea : S.limits.byLabel}
              </label>
            ))}
          </fieldset>
          {proposal.error ? <ErrorMessage error={proposal.error} onRetry={() => proposal.reload()} /> : null}
          {proposal.loading && !data ? <Loading label={S.limits.splitLoading} /> : null}
          {data ? (
            <div aria-busy={proposal.loading} data-testid="split-proposal">
              <p class="small">{S.limits.splitLimit(data.maxDevices, data.limitFrom?.name ?? null)}</p>
              {data.tooBig.length > 0 ? (
                <p class="notice" data-testid="split-too-big">
                  {S.limits.tooBig(data.tooBig.map((g) => `${g.name} (${g.devices})`).join(", "))}
                </p>
              ) : null}
              <ul class="list">
                {data.bridges.map((proposed) => (
                  <ProposedRow key={proposed.name} bridge={proposed} max={data.maxDevices} />
                ))}
              </ul>
              <label class="check">
                <input
                  type="checkbox"
                  checked={keep}
                  aria-describedby="keep-original-hint"
                  onChange={(e) => setKeep(e.currentTarget.checked)}
                />
                {S.limits.keepOriginal}
              </label>
              <p class="hint" id="keep-original-hint">
                {S.limits.keepOriginalHint}
              </p>
            </div>
          ) : null}
        </div>
        <div class="dialog-foot">
          <div class="dialog-outcome">{failure ? <ErrorMessage error={failure} /> : null}</div>
          <div class="dialog-actions">
            <button type="button" class="btn" onClick={onClose}>
              {S.common.cancel}
            </button>
            <button
              type="submit"
              class="btn btn-primary"
              disabled={busy || !data || proposal.loading}
              data-testid="confirm-split"
            >
              {S.limits.confirmSplit(data?.bridges.length ?? 0)}
            </button>
          </div>
        </div>
      </form>
    </dialog>
  );
}
