import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { attempt, confirmDialog } from "../../../common/components/notify.tsx";
import { Empty, ErrorMessage, Loading, PageHeader } from "../../../common/components/ui.tsx";
import { apiUrl } from "../../../common/http.ts";
import { useAsync, useDebounced } from "../../../common/use-async.ts";
import { clearLogs, listLogs } from "../api/system.ts";
import type { LogEntry, LogLevel } from "../api/types.ts";
import { formatClock } from "../lib/format.ts";
import { S } from "../strings.ts";

const LEVELS = Object.keys(S.levels) as LogLevel[];
const LIMIT = 500;
const MAX_LINES = 1000;

function extras(entry: LogEntry): string {
  const { id: _id, time: _time, level: _level, msg: _msg, component: _component, ...rest } = entry;
  const keys = Object.keys(rest);
  if (keys.length === 0) return "";
  return JSON.stringify(rest);
}

function LogLine({ entry }: { entry: LogEntry }) {
  const more = extras(entry);
  return (
    <li class={`log-line level-${entry.level}`} data-testid="log-line">
      <time dateTime={entry.time}>{formatClock(entry.time)}</time>
      <span class={`level level-${entry.level}`}>{S.levels[entry.level] ?? entry.level}</span>
      {entry.component ? <span class="component">{entry.component}</span> : null}
      <span class="log-msg">{entry.msg}</span>
      {more ? (
        <details class="log-extra">
          <summary>{S.common.details}</summary>
          <pre>{more}</pre>
        </details>
      ) : null}
    </li>
  );
}

/** Stored log lines with level and text filters, and a live tail over Server-Sent Events. */
export function LogsPage() {
  const [levels, setLevels] = useState<LogLevel[]>(["info", "warn", "error", "fatal"]);
  const [search, setSearch] = useState("");
  const [tail, setTail] = useState(true);
  const [streamError, setStreamError] = useState(false);
  const [lines, setLines] = useState<LogEntry[]>([]);
  const needle = useDebounced(search.trim(), 250);
  const page = useAsync((signal) => listLogs({ levels, search: needle, limit: LIMIT }, signal), [levels.join(), needle]);
  const lastId = useRef(0);

  useEffect(() => {
    if (page.data) {
      setLines(page.data.logs);
      lastId.current = page.data.logs[0]?.id ?? lastId.current;
    }
  }, [page.data]);

  const matches = useMemo(() => {
    const lower = needle.toLowerCase();
    return (entry: LogEntry) =>
      levels.includes(entry.level) &&
      (!lower || entry.msg.toLowerCase().includes(lower) || (entry.component ?? "").toLowerCase().includes(lower));
  }, [levels, needle]);

  useEffect(() => {
    if (!tail) return;
    const source = new EventSource(apiUrl("api/logs/stream"));
    source.onopen = () => setStreamError(false);
    source.onerror = () => setStreamError(true);
    source.onmessage = (event) => {
      let entry: LogEntry;
      try {
        entry = JSON.parse(String(event.data)) as LogEntry;
      } catch {
        return;
      }
      if (entry.id <= lastId.current || !matches(entry)) return;
      lastId.current = entry.id;
      setLines((current) => [entry, ...current].slice(0, MAX_LINES));
    };
    return () => source.close();
  }, [tail, matches]);

  const toggleLevel = (level: LogLevel) =>
    setLevels((current) => (current.includes(level) ? current.filter((l) => l !== level) : [...current, level]));

  const clear = async () => {
    if (!(await confirmDialog({ title: S.logs.clearTitle, text: S.logs.clearText, confirmLabel: S.logs.clear, danger: true })))
      return;
    const result = await attempt(S.logs.clear, clearLogs);
    if (result) {
      setLines([]);
      page.reload(true);
    }
  };

  return (
    <>
      <PageHeader title={S.logs.title}>
        <button type="button" class="btn btn-danger-outline" onClick={clear}>
          {S.logs.clear}
        </button>
      </PageHeader>
      <div class="toolbar filters">
        <fieldset class="chips">
          <legend>{S.logs.levels}</legend>
          {LEVELS.map((level) => (
            <label key={level} class={`chip level-${level} ${levels.includes(level) ? "on" : ""}`}>
              <input type="checkbox" checked={levels.includes(level)} onChange={() => toggleLevel(level)} />
              {S.levels[level]}
            </label>
          ))}
        </fieldset>
        <label class="inline-field">
          <span>{S.logs.search}</span>
          <input
            type="search"
            placeholder={S.logs.searchPlaceholder}
            value={search}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </label>
        <label class="check switch">
          <input type="checkbox" checked={tail} onChange={(e) => setTail(e.currentTarget.checked)} data-testid="live-tail" />
          {S.logs.live}
        </label>
      </div>
      {tail && streamError ? <ErrorMessage error={S.logs.liveError} /> : null}
      {page.error ? <ErrorMessage error={page.error} onRetry={() => page.reload()} /> : null}
      {page.loading && !page.data ? <Loading /> : null}
      {page.data ? (
        <p class="muted small" aria-live="polite">
          {S.logs.shown(lines.length, Math.max(page.data.total, lines.length))}
        </p>
      ) : null}
      {page.data && lines.length === 0 ? <Empty title={S.logs.empty} /> : null}
      {lines.length > 0 ? (
        <ul class="log-list card flush" data-testid="log-list" aria-label={S.logs.title}>
          {lines.map((entry) => (
            <LogLine key={entry.id} entry={entry} />
          ))}
        </ul>
      ) : null}
    </>
  );
}
