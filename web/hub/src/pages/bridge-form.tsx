import { useEffect, useState } from "preact/hooks";
import { notify } from "../../../common/components/notify.tsx";
import { ErrorMessage, Field, Loading, PageHeader } from "../../../common/components/ui.tsx";
import { Link, navigate } from "../../../common/hash-router.tsx";
import { useAsync } from "../../../common/use-async.ts";
import { createBridge, filterValues, getBridge, nextPort, updateBridge } from "../api/bridges.ts";
import { applyBridge } from "../api/live.ts";
import type { BridgeInput } from "../api/types.ts";
import { S } from "../strings.ts";
import { ControllerPicker } from "./controller-limits.tsx";
import { FilterBuilder, FilterPreviewPanel, ruleError } from "./filter-builder.tsx";

const EMPTY: BridgeInput = {
  name: "",
  port: 5540,
  priority: 100,
  serverMode: false,
  composeDevices: true,
  autoStart: true,
  filter: { include: [], exclude: [], includeHidden: false },
  controllers: [],
  leaveOutUnsupported: false,
};

function nameError(name: string): string | null {
  if (name.trim() === "") return S.form.nameRequired;
  if (name.trim().length > 32) return S.form.nameTooLong;
  return null;
}

function portError(port: number): string | null {
  return Number.isInteger(port) && port >= 1024 && port <= 65535 ? null : S.form.portInvalid;
}

export function BridgeFormPage({ bridgeId }: { bridgeId?: string }) {
  const editing = bridgeId !== undefined;
  const initial = useAsync(
    async (signal): Promise<{ input: BridgeInput; name: string }> => {
      if (bridgeId) {
        const b = await getBridge(bridgeId, signal);
        const input: BridgeInput = {
          name: b.name,
          port: b.port,
          priority: b.priority,
          serverMode: b.serverMode,
          composeDevices: b.composeDevices,
          autoStart: b.autoStart,
          filter: {
            include: b.filter.include ?? [],
            exclude: b.filter.exclude ?? [],
            includeHidden: b.filter.includeHidden ?? false,
            // Kept as stored: a split bridge's narrowing must survive an edit.
            ...(b.filter.within?.length ? { within: b.filter.within } : {}),
          },
          controllers: b.controllers ?? [],
          leaveOutUnsupported: b.leaveOutUnsupported ?? false,
        };
        return { input, name: b.name };
      }
      const { port } = await nextPort();
      return { input: { ...EMPTY, port }, name: "" };
    },
    [bridgeId],
  );
  const values = useAsync((signal) => filterValues(signal), []);
  const [form, setForm] = useState<BridgeInput | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<Error | null>(null);

  useEffect(() => {
    if (initial.data) setForm(initial.data.input);
  }, [initial.data]);

  const title = editing ? S.form.editTitle(initial.data?.name ?? "") : S.form.createTitle;
  if (initial.error) {
    return (
      <>
        <PageHeader title={title} />
        <ErrorMessage error={initial.error} onRetry={() => initial.reload()} />
      </>
    );
  }
  if (!form) {
    return (
      <>
        <PageHeader title={title} />
        <Loading />
      </>
    );
  }

  const errors = {
    name: submitted ? nameError(form.name) : null,
    port: submitted ? portError(form.port) : null,
  };
  const rulesValid = [...form.filter.include, ...form.filter.exclude, ...(form.filter.within ?? [])].every(
    (r) => ruleError(r, true) === null,
  );

  const submit = async (event: Event) => {
    event.preventDefault();
    setSubmitted(true);
    if (nameError(form.name) || portError(form.port) || !rulesValid) return;
    setSaving(true);
    setSaveError(null);
    try {
      const body = { ...form, name: form.name.trim() };
      const saved = bridgeId ? await updateBridge(bridgeId, body) : await createBridge(body);
      applyBridge(saved);
      notify.ok(bridgeId ? S.form.saved(saved.name) : S.form.created(saved.name));
      navigate(`/bridges/${saved.id}`);
    } catch (error) {
      setSaveError(error as Error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <PageHeader title={title} />
      <form class="bridge-form" onSubmit={submit} noValidate>
        <div class="form-main">
          <div class="card">
            <div class="form-row">
              <Field label={S.form.name} hint={S.form.nameHint} error={errors.name}>
                {(props) => (
                  <input
                    {...props}
                    type="text"
                    name="name"
                    maxLength={32}
                    required
                    value={form.name}
                    onInput={(e) => setForm({ ...form, name: e.currentTarget.value })}
                  />
                )}
              </Field>
              <Field label={S.form.port} hint={S.form.portHint} error={errors.port}>
                {(props) => (
                  <input
                    {...props}
                    type="number"
                    name="port"
                    inputMode="numeric"
                    min={1024}
                    max={65535}
                    value={form.port}
                    onInput={(e) => setForm({ ...form, port: e.currentTarget.valueAsNumber })}
                  />
                )}
              </Field>
              <Field label={S.form.priority} hint={S.form.priorityHint}>
                {(props) => (
                  <input
                    {...props}
                    type="number"
                    name="priority"
                    inputMode="numeric"
                    min={0}
                    max={10000}
                    value={form.priority}
                    onInput={(e) => setForm({ ...form, priority: Math.max(0, e.currentTarget.valueAsNumber || 0) })}
                  />
                )}
              </Field>
            </div>
            <label class="check">
              <input
                type="checkbox"
                checked={form.autoStart}
                onChange={(e) => setForm({ ...form, autoStart: e.currentTarget.checked })}
              />
              {S.form.autoStart}
            </label>
            <label class="check">
              <input
                type="checkbox"
                checked={form.serverMode}
                onChange={(e) => setForm({ ...form, serverMode: e.currentTarget.checked })}
                aria-describedby="server-mode-hint"
              />
              {S.form.serverMode}
            </label>
            <p class="hint" id="server-mode-hint">
              {S.form.serverModeHint}
            </p>
            <label class="check">
              <input
                type="checkbox"
                checked={form.composeDevices}
                onChange={(e) => setForm({ ...form, composeDevices: e.currentTarget.checked })}
                aria-describedby="compose-devices-hint"
              />
              {S.form.composeDevices}
            </label>
            <p class="hint" id="compose-devices-hint">
              {S.form.composeDevicesHint}
            </p>
          </div>
          <div class="card" data-testid="controllers-card">
            <ControllerPicker
              value={form.controllers}
              leaveOut={form.leaveOutUnsupported}
              onChange={(next) => setForm({ ...form, ...next })}
            />
          </div>
          <div class="card">
            <h2>{S.form.filter}</h2>
            {values.error ? <ErrorMessage error={values.error} onRetry={() => values.reload()} /> : null}
            <FilterBuilder
              filter={form.filter}
              values={values.data}
              submitted={submitted}
              onChange={(filter) => setForm({ ...form, filter })}
            />
          </div>
          {saveError ? <ErrorMessage error={saveError} title={S.common.failed(editing ? S.form.save : S.form.create)} /> : null}
          <div class="form-actions">
            <Link class="btn" href={bridgeId ? `/bridges/${bridgeId}` : "/bridges"}>
              {S.common.cancel}
            </Link>
            <button type="submit" class="btn btn-primary" disabled={saving} data-testid="save-bridge">
              {editing ? S.form.save : S.form.create}
            </button>
          </div>
        </div>
        <aside class="form-side card">
          <FilterPreviewPanel
            filter={form.filter}
            settings={{
              bridgeId,
              controllers: form.controllers,
              leaveOutUnsupported: form.leaveOutUnsupported,
              composeDevices: form.composeDevices,
              serverMode: form.serverMode,
              port: Number.isInteger(form.port) ? form.port : undefined,
            }}
          />
        </aside>
      </form>
    </>
  );
}
