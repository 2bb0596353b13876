import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "../../../common/http.ts";
import {
  cancelInstall,
  getInstall,
  type InstallEvent,
  type InstallJobView,
  type InstallPhase,
  installEventsUrl,
  listInstalls,
} from "../api/plugins.ts";
import { S } from "../strings.ts";

/** The job this tab started, so a reload shows it again (running: its progress; failed: the reason). */
const STORED = "matter-hub.plugin-install";
const SHOWN_LINES = 200;
const PHASES: InstallPhase[] = ["resolving", "fetching", "extracting", "checking", "recording"];

const finished = (job: InstallJobView) => job.state === "succeeded" || job.state === "failed" || job.state === "cancelled";
const subjectOf = (job: InstallJobView) => (job.source.type === "registry" ? job.source.spec : job.source.file);

function remember(id: string | null) {
  try {
    if (id) sessionStorage.setItem(STORED, id);
    else sessionStorage.removeItem(STORED);
  } catch {
    // storage disabled: a reload then shows only running installs
  }
}

/**
 * The install job the card shows: started here, or found running (or ended, when this tab started it) after a
 * reload. Its progress comes as Server-Sent Events; EventSource reconnects by itself and the hub resends what was
 * missed (Last-Event-ID). `onEnd` runs once per job that ends while shown.
 */
export function useInstallJob(onEnd: (job: InstallJobView) => void) {
  const [job, setJob] = useState<InstallJobView | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const [cancelError, setCancelError] = useState<Error | null>(null);
  const source = useRef<EventSource | null>(null);
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;

  const stop = () => {
    source.current?.close();
    source.current = null;
  };

  const end = (final: InstallJobView) => {
    stop();
    setJob(final);
    setCancelling(false);
    if (final.state === "succeeded") remember(null);
    onEndRef.current(final);
  };

  const follow = (current: InstallJobView) => {
    stop();
    setJob(current);
    setCancelError(null);
    if (finished(current)) return;
    const stream = new EventSource(installEventsUrl(current.id, current.events.at(-1)?.seq ?? 0));
    source.current = stream;
    stream.addEventListener("progress", (message) => {
      const event = JSON.parse((message as MessageEvent<string>).data) as InstallEvent;
      setJob((shown) => {
        if (!shown || shown.id !== current.id || shown.events.some((e) => e.seq === event.seq)) return shown;
        const events = [...shown.events, event].slice(-SHOWN_LINES);
        const cancellable = event.phase !== "recording";
        return { ...shown, state: "running", phase: event.phase, cancellable, events };
      });
    });
    stream.addEventListener("end", (message) => end(JSON.parse((message as MessageEvent<string>).data) as InstallJobView));
    stream.onerror = () => {
      // CONNECTING: the browser retries by itself. CLOSED: the hub refused the stream (the job is gone: restarted).
      if (stream.readyState !== EventSource.CLOSED) return;
      getInstall(current.id).then(
        (latest) => (finished(latest) ? end(latest) : undefined),
        () => {
          stop();
          remember(null);
          setJob(null);
        },
      );
    };
  };

  useEffect(() => {
    const abort = new AbortController();
    (async () => {
      const { installs } = await listInstalls(abort.signal);
      const running = installs.find((candidate) => !finished(candidate));
      let stored: string | null = null;
      try {
        stored = sessionStorage.getItem(STORED);
      } catch {
        stored = null;
      }
      const id = running?.id ?? (installs.some((candidate) => candidate.id === stored) ? stored : null);
      if (!id) return;
      const shown = await getInstall(id, abort.signal);
      if (shown.state === "succeeded") remember(null);
      else follow(shown);
    })().catch(() => undefined);
    return () => {
      abort.abort();
      stop();
    };
  }, []);

  return {
    job,
    cancelling,
    cancelError,
    /** Shows a job just started here. */
    started(started: InstallJobView) {
      remember(started.id);
      follow(started);
    },
    async cancel() {
      if (!job) return;
      setCancelling(true);
      setCancelError(null);
      try {
        end(await cancelInstall(job.id));
      } catch (error) {
        setCancelling(false);
        // 409: it ended or is recording meanwhile; the stream brings the end.
        if (!(error instanceof ApiError && error.status === 409)) setCancelError(error as Error);
      }
    },
    dismiss() {
      stop();
      remember(null);
      setJob(null);
    },
  };
}

/** A running install: its steps, npm's latest line, npm's lines so far, and Cancel. */
export function InstallProgress({
  job,
  cancelling,
  onCancel,
}: {
  job: InstallJobView;
  cancelling: boolean;
  onCancel: () => void;
}) {
  const current = PHASES.indexOf(job.phase);
  const last = job.events.at(-1);
  return (
    <section class="install-progress" data-testid="install-progress" data-phase={job.phase} aria-label={S.plugins.progressLabel}>
      <p class="install-progress-title">
        <span class="spinner" aria-hidden="true" />
        <strong>{S.plugins.installingName(subjectOf(job))}</strong>
      </p>
      <ol class="install-steps">
        {PHASES.map((phase, index) => {
          const state = job.phase === "queued" || index > current ? "todo" : index < current ? "done" : "current";
          return (
            <li key={phase} class={`install-step install-step-${state}`} aria-current={state === "current" ? "step" : undefined}>
              {S.plugins.phases[phase]}
            </li>
          );
        })}
      </ol>
      <p class="install-line" aria-live="polite" data-testid="install-line">
        {job.phase === "queued" ? S.plugins.phaseQueued : (last?.message ?? S.plugins.phases[job.phase])}
      </p>
      {job.events.length > 0 ? <NpmLines events={job.events} dropped={job.droppedEvents} /> : null}
      <div class="button-row">
        <button
          type="button"
          class="btn"
          onClick={onCancel}
          disabled={cancelling || !job.cancellable}
          data-testid="install-cancel"
        >
          {cancelling ? S.plugins.cancelling : S.plugins.cancelInstall}
        </button>
        {job.cancellable ? null : <span class="muted">{S.plugins.tooLateToCancel}</span>}
      </div>
    </section>
  );
}

function NpmLines({ events, dropped }: { events: InstallEvent[]; dropped: number }) {
  return (
    <details class="install-details">
      <summary>{S.plugins.npmLines(events.length + dropped)}</summary>
      <pre>{events.map((event) => event.message).join("\n")}</pre>
    </details>
  );
}

/** How an ended install went, when it did not simply succeed: the reason in one sentence, npm's output behind it. */
export function InstallOutcome({ job, onDismiss }: { job: InstallJobView; onDismiss: () => void }) {
  if (job.state === "cancelled") {
    return (
      <div class="notice install-outcome" role="status" data-testid="install-cancelled">
        <div>
          <strong>{S.plugins.cancelledTitle}: </strong>
          {S.plugins.cancelledText(subjectOf(job))}
        </div>
        <button type="button" class="btn btn-small" onClick={onDismiss}>
          {S.plugins.dismiss}
        </button>
      </div>
    );
  }
  const warnings = job.result?.warnings ?? [];
  if (job.state === "succeeded") {
    if (warnings.length === 0) return null;
    return (
      <div class="notice install-outcome" role="status" data-testid="install-warning">
        <div>
          <strong>{S.plugins.installedWithWarning}: </strong>
          {warnings.join(" ")}
        </div>
        <button type="button" class="btn btn-small" onClick={onDismiss}>
          {S.plugins.dismiss}
        </button>
      </div>
    );
  }
  const details = job.error?.details;
  return (
    <div class="notice notice-error install-outcome" role="alert" data-testid="install-error" data-code={job.error?.code}>
      <div>
        <strong>{S.plugins.installFailed}: </strong>
        {job.error?.message ?? S.plugins.installFailed}
        {details ? (
          <details class="install-details">
            <summary>{S.plugins.details}</summary>
            <pre>{details}</pre>
          </details>
        ) : null}
      </div>
      <button type="button" class="btn btn-small" onClick={onDismiss}>
        {S.plugins.dismiss}
      </button>
    </div>
  );
}
