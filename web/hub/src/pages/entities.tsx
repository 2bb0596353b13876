import { useEffect, useMemo, useState } from "preact/hooks";
import { attempt } from "../../../common/components/notify.tsx";
import { Empty, ErrorMessage, Loading, PageHeader, Pager } from "../../../common/components/ui.tsx";
import { useAsync, useDebounced } from "../../../common/use-async.ts";
import { listAreas, listDomains, listEntities, refreshHa } from "../api/home-assistant.ts";
import { S } from "../strings.ts";

const PAGE_SIZES = [50, 100, 250, 500];

/** Every Home Assistant entity the hub sees, paged by the server (100 by default, at most 500 per request). */
export function EntitiesPage() {
  const [search, setSearch] = useState("");
  const [domain, setDomain] = useState("");
  const [limit, setLimit] = useState(100);
  const [offset, setOffset] = useState(0);
  const [busy, setBusy] = useState(false);
  const debounced = useDebounced(search.trim(), 250);
  const domains = useAsync((signal) => listDomains(signal), []);
  const areas = useAsync((signal) => listAreas(signal), []);
  const areaName = useMemo(() => new Map((areas.data ?? []).map((a) => [a.id, a.name])), [areas.data]);
  const page = useAsync(
    (signal) => listEntities({ search: debounced, domain, limit, offset }, signal),
    [debounced, domain, limit, offset],
  );
  useEffect(() => setOffset(0), [debounced, domain, limit]);

  const reload = async () => {
    setBusy(true);
    const result = await attempt(S.entities.refresh, refreshHa);
    setBusy(false);
    if (result) {
      page.reload(true);
      domains.reload(true);
    }
  };

  return (
    <>
      <PageHeader title={S.entities.title}>
        <button type="button" class="btn" disabled={busy} onClick={reload}>
          {S.entities.refresh}
        </button>
      </PageHeader>
      <p class="muted">{S.entities.intro}</p>
      <div class="toolbar filters">
        <label class="inline-field">
          <span>{S.entities.search}</span>
          <input
            type="search"
            placeholder={S.entities.searchPlaceholder}
            value={search}
            spellcheck={false}
            autocapitalize="off"
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </label>
        <label class="inline-field">
          <span>{S.entities.domain}</span>
          <select value={domain} onChange={(e) => setDomain(e.currentTarget.value)}>
            <option value="">{S.entities.allDomains}</option>
            {(domains.data?.domains ?? []).map((d) => (
              <option key={d.domain} value={d.domain}>
                {d.domain} ({d.count})
              </option>
            ))}
          </select>
        </label>
        <label class="inline-field">
          <span>{S.common.perPage}</span>
          <select value={limit} onChange={(e) => setLimit(Number(e.currentTarget.value))}>
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        {page.data ? (
          <span class="muted" aria-live="polite" data-testid="entity-total">
            {S.entities.total(page.data.total)}
          </span>
        ) : null}
      </div>
      {domains.error ? <ErrorMessage error={domains.error} onRetry={() => domains.reload()} /> : null}
      {page.error ? <ErrorMessage error={page.error} onRetry={() => page.reload()} /> : null}
      {page.loading && !page.data ? <Loading /> : null}
      {page.data && page.data.entities.length === 0 ? <Empty title={S.entities.empty} /> : null}
      {page.data && page.data.entities.length > 0 ? (
        <div class={`card flush ${page.loading ? "stale" : ""}`}>
          <table class="table responsive" data-testid="entities-table">
            <thead>
              <tr>
                <th scope="col">{S.entities.name}</th>
                <th scope="col">{S.entities.state}</th>
                <th scope="col">{S.entities.area}</th>
                <th scope="col">{S.entities.device}</th>
              </tr>
            </thead>
            <tbody>
              {page.data.entities.map((e) => (
                <tr key={e.entity_id}>
                  <td data-label={S.entities.name}>
                    <span class="device-name">{e.name}</span>
                    <code class="muted small">{e.entity_id}</code>
                    {e.hidden ? <span class="pill">{S.entities.hidden}</span> : null}
                    {e.disabled ? <span class="pill pill-bad">{S.entities.disabled}</span> : null}
                  </td>
                  <td data-label={S.entities.state}>
                    {e.state ?? "—"}
                    {e.unit_of_measurement && e.state !== null ? ` ${e.unit_of_measurement}` : ""}
                  </td>
                  <td data-label={S.entities.area}>{e.area_id ? (areaName.get(e.area_id) ?? e.area_id) : "—"}</td>
                  <td data-label={S.entities.device}>{e.device_name ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {page.data ? (
        <Pager total={page.data.total} offset={offset} limit={limit} onChange={setOffset} label={S.entities.title} />
      ) : null}
    </>
  );
}
