import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { PreserveLogBox, usePreserveLog } from '../../../renderer/src/components/PreserveLog.js';
import { Splitter } from '../../../renderer/src/components/Splitter.js';
import {
  type PanelEvent,
  type PanelProps,
  useOpenOffline,
  usePanelClient,
  usePluginEvents,
  useReveal,
} from '../../../renderer/src/panel-kit.js';
import type { AgentInfo, MockConfigView, ReplayRequest, SearchQuery, TransactionSummary } from '../protocol.js';
import { networkProtocol } from '../protocol.js';
import { searchPattern } from '../search-pattern.js';
import { ColumnMenu } from './ColumnMenu.js';
import { orderOf, useColumnLayout } from './column-layout.js';
import { COLUMNS, type Span, spanOf } from './columns.js';
import { FilterBar } from './FilterBar.js';
import { formatBytes } from './format.js';
import { currentLoadOnly, latestLoad, loadRowId, withLoads } from './loads.js';
import { type EditorState, MocksView } from './MocksView.js';
import { draftFromTransaction } from './mock-form.js';
import { TransactionModel } from './model.js';
import { inRange, Overview } from './Overview.js';
import { explainEmpty, parseQuery, type Query, removeTerm } from './query.js';
import { describeReplay } from './replay-form.js';
import { SearchBox, type SearchState } from './SearchBox.js';
import { vocabularyOf } from './suggest.js';
import { TransactionDetail } from './TransactionDetail.js';
import { TransactionTable } from './TransactionTable.js';
import './network.css';

const PAGE = 5000;
/** The bridge carries frames up to 16 MiB; a HAR file is sent as text. */
const MAX_HAR_BYTES = 15 * 1024 * 1024;
const DETAIL_KEY = 'porthole.network.detailWidth';
const DETAIL_MIN = 300;
const PRESERVE_KEY = 'porthole.network.preserve';

function storedDetailWidth(): number {
  const n = Number(globalThis.localStorage?.getItem(DETAIL_KEY));
  return Number.isFinite(n) && n >= DETAIL_MIN ? n : 460;
}

/** The network panel: live requests (virtualized, queried, searched), their details, and the app's mock rules. */
export default function NetworkPanel({ session }: PanelProps) {
  const api = usePanelClient(networkProtocol, session.id);
  const openOffline = useOpenOffline(networkProtocol);
  const model = useMemo(() => new TransactionModel(), []);
  const version = useSyncExternalStore(model.subscribe, model.getVersion);
  const [queryText, setQueryText] = useState('');
  const query = useMemo(() => parseQuery(queryText), [queryText]);
  const [search, setSearch] = useState<SearchState>();
  const { layout, columns, toggle, resize, sortBy, reset } = useColumnLayout();
  const [menu, setMenu] = useState<{ at?: { x: number; y: number } }>();
  const [selectedId, setSelectedId] = useState<string>();
  const [zoom, setZoom] = useState<Span>();
  const [tab, setTab] = useState<'requests' | 'mocks'>('requests');
  const [config, setConfig] = useState<MockConfigView>();
  const [agentInfo, setAgentInfo] = useState<AgentInfo>();
  const [editor, setEditor] = useState<EditorState>();
  const [syncFailure, setSyncFailure] = useState<string>();
  const [dropped, setDropped] = useState({ count: 0, bytes: 0 });
  const [loaded, setLoaded] = useState(false);
  const [progress, setProgress] = useState<{ loaded: number; total: number }>();
  const [detailWidth, setDetailWidth] = useState(storedDetailWidth);
  const { preserve, choose: choosePreserve, reveal: revealEarlierLoads } = usePreserveLog(PRESERVE_KEY);
  /** Loads the person opened or closed (by number); otherwise only the current one is open. */
  const [loadsOpen, setLoadsOpen] = useState<ReadonlyMap<number, boolean>>(() => new Map());
  const [message, setMessage] = useState<{ kind: 'error' | 'info'; text: string }>();
  const loading = useRef<PanelEvent<typeof networkProtocol>[] | undefined>([]);
  const fileRef = useRef<HTMLInputElement>(null);
  const detailRef = useRef<HTMLElement>(null);
  const splitRef = useRef<HTMLDivElement>(null);

  const apply = (events: PanelEvent<typeof networkProtocol>[]) => {
    const upserts: TransactionSummary[] = [];
    const flush = () => model.upsert(upserts.splice(0));
    const hits: Record<string, number> = {};
    const counted = new Set<string>();
    for (const e of events) {
      switch (e.event) {
        case 'transaction': {
          const { change, transaction } = e.data;
          upserts.push(transaction);
          // The host counts a hit when a request first carries a rule's mark (when it starts, or
          // with its response for Node's http); the panel keeps up without asking.
          const { id, mockRuleId } = transaction;
          const known = counted.has(id) || (change === 'updated' && !!model.get(id)?.mockRuleId);
          if (mockRuleId && !transaction.imported && !known) {
            counted.add(id);
            hits[mockRuleId] = (hits[mockRuleId] ?? 0) + 1;
          }
          break;
        }
        case 'dropped':
          flush();
          model.dropOldest(e.data.count);
          setDropped({ count: e.data.totalDropped, bytes: e.data.totalBytes ?? 0 });
          break;
        case 'cleared':
          upserts.length = 0;
          model.clear();
          break;
        case 'mock-config':
          setConfig(e.data);
          break;
        case 'mock-sync-failed':
          setSyncFailure(e.data.error);
          break;
        case 'imported':
          setMessage({ kind: 'info', text: `Imported ${e.data.count.toLocaleString()} requests from a HAR file.` });
          break;
      }
    }
    flush();
    if (Object.keys(hits).length > 0) {
      setConfig((c) => {
        if (!c) return c;
        const merged = { ...c.hits };
        for (const [id, n] of Object.entries(hits)) merged[id] = (merged[id] ?? 0) + n;
        return { ...c, hits: merged };
      });
    }
  };

  // Saved rules that were not all valid: say once which were dropped and where the old file is.
  const repaired = config?.repaired;
  useEffect(() => {
    if (!repaired) return;
    const which = repaired.dropped
      .map(
        (d) => `${d.index >= 0 ? `rule ${d.index + 1}` : 'the rule list'}${d.name ? ` "${d.name}"` : ''}: ${d.reason}`,
      )
      .join('; ');
    setMessage({
      kind: 'error',
      text: `Some saved mock rules were invalid and dropped (${repaired.kept} kept). ${which}.${repaired.backup ? ` The old file is kept as ${repaired.backup}.` : ''}`,
    });
  }, [repaired]);

  usePluginEvents(networkProtocol, session.id, (events) => {
    // While the first pages load, events wait; drops are already reflected in the pages.
    if (loading.current) loading.current.push(...events.filter((e) => e.event !== 'dropped'));
    else apply(events);
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per mounted panel (one per session)
  useEffect(() => {
    let live = true;
    (async () => {
      try {
        let cursor: string | undefined;
        do {
          const page = await api.call('list', { limit: PAGE, order: 'oldest', cursor });
          if (!live) return;
          model.upsert(page.transactions);
          cursor = page.nextCursor;
          if (cursor) setProgress({ loaded: page.total - page.remaining, total: page.total });
        } while (cursor);
        const [mocks, stats, info] = await Promise.all([
          api.call('mockConfig', {}),
          api.call('stats', {}),
          api.call('agentInfo', {}),
        ]);
        if (!live) return;
        setConfig(mocks);
        setAgentInfo(info.info);
        if (mocks.sync.state === 'failed') setSyncFailure(mocks.sync.error);
        setDropped({ count: stats.dropped, bytes: stats.droppedBytes });
      } catch (e) {
        if (live) setMessage({ kind: 'error', text: `Could not load the requests: ${(e as Error).message}` });
      } finally {
        const buffered = loading.current ?? [];
        loading.current = undefined;
        if (live) {
          apply(buffered);
          setLoaded(true);
        }
      }
    })();
    return () => {
      live = false;
    };
  }, [api, model]);

  const order = useMemo(() => orderOf(layout.sort), [layout.sort]);
  const filtered = model.filtered({ query, hits: search?.ids, order });
  const sessionLoad = session.load?.seq;
  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the model's change counter
  const latest = useMemo(() => latestLoad(sessionLoad, model.all()), [sessionLoad, model, version]);
  // Without Preserve log only the current load's requests, as DevTools clears its log on navigation.
  const matching = useMemo(
    () => (preserve ? filtered : currentLoadOnly(filtered, latest)),
    [filtered, preserve, latest],
  );
  const span = useMemo(() => spanOf(matching), [matching]);
  // The overview's zoom keeps the requests that overlap its range; it follows the filter's span.
  const rows = useMemo(() => (zoom ? inRange(matching, zoom) : matching), [matching, zoom]);
  // Once the requests span several loads, each load's come under a header row (older loads closed).
  const tableRows = useMemo(() => withLoads(rows, latest, loadsOpen), [rows, latest, loadsOpen]);
  const selected = selectedId ? model.get(selectedId) : undefined;
  // The detail of a row the filter, a closed load (or a drop) took away closes.
  const selectedShown = useMemo(
    () => !!selectedId && tableRows.some((r) => r.id === selectedId),
    [tableRows, selectedId],
  );
  useEffect(() => {
    if (selectedId && !selectedShown) setSelectedId(undefined);
  }, [selectedId, selectedShown]);

  const vocabulary = useMemo(() => {
    let cached: ReturnType<typeof vocabularyOf> | undefined;
    void version;
    return () => (cached ??= vocabularyOf(model.all()));
  }, [model, version]);

  const pattern = useMemo(() => {
    try {
      return search?.hits ? searchPattern(search.query) : undefined;
    } catch {
      return undefined;
    }
  }, [search]);

  const runSearch = useCallback(
    async (q: SearchQuery) => {
      setSearch({ query: q });
      try {
        const result = await api.call('search', q);
        const hits = new Map(result.hits.map((h) => [h.id, h.places]));
        setSearch((s) => (s?.query === q ? { query: q, hits, ids: new Set(hits.keys()) } : s));
      } catch (e) {
        setSearch((s) => (s?.query === q ? { query: q, error: (e as Error).message } : s));
      }
    },
    [api],
  );

  const act = async (what: string, action: () => Promise<string | undefined>) => {
    setMessage(undefined);
    try {
      const info = await action();
      if (info) setMessage({ kind: 'info', text: info });
    } catch (e) {
      setMessage({ kind: 'error', text: `${what} failed: ${(e as Error).message}` });
    }
  };

  const filtering = !query.empty || search !== undefined || matching !== filtered;
  const exportHar = () =>
    act('Export', async () => {
      const har = await api.call('exportHar', filtering ? { ids: rows.map((r) => r.id) } : {});
      const name = `${session.app.name.replace(/[^\w.-]+/g, '-')}-${new Date().toISOString().replace(/[:.]/g, '-')}.har`;
      const url = URL.createObjectURL(new Blob([JSON.stringify(har, null, 2)], { type: 'application/json' }));
      const link = Object.assign(document.createElement('a'), { href: url, download: name });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      return `Exported ${har.log.entries.length.toLocaleString()} requests to ${name}.`;
    });

  // An imported HAR is its own offline session, never mixed into this one.
  const importHar = (file: File) =>
    act('Import', async () => {
      if (file.size > MAX_HAR_BYTES) throw new Error(`${file.name} is larger than 15 MB; import a smaller HAR file`);
      const har = await file.text();
      await openOffline(file.name, async (offline) => {
        await offline.call('importHar', { har, source: file.name });
      });
      return undefined;
    });

  // A replay selects its new row (added now if its event is still on the way) and says how it went;
  // a refusal is shown where it was asked for (the detail or the form).
  const replay = async (request: ReplayRequest) => {
    setMessage(undefined);
    const result = await api.call('replay', request);
    if (result.transaction) {
      model.upsert([result.transaction]);
      setSelectedId(result.transaction.id);
    }
    setMessage({ kind: result.transaction?.state === 'failed' ? 'error' : 'info', text: describeReplay(result) });
  };

  const selectOriginal = (id: string) => {
    if (!rows.some((r) => r.id === id)) {
      setQueryText('');
      setSearch(undefined);
      setZoom(undefined);
    }
    // Its load is shown and opened.
    const load = model.get(id)?.load;
    if (load !== undefined) {
      if (!preserve && latest !== undefined && load < latest) revealEarlierLoads();
      setLoadsOpen((m) => new Map(m).set(load, true));
    }
    setSelectedId(id);
  };

  // A request opened from the session's timeline: shown in the table with its detail.
  useReveal(networkProtocol, session.id, (id) => {
    if (!loaded) return false;
    setTab('requests');
    if (id.startsWith('load:')) {
      revealLoad(Number(id.slice('load:'.length)));
      return true;
    }
    if (model.get(id)) {
      selectOriginal(id);
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="network-table"]')?.focus());
    } else {
      setMessage({ kind: 'info', text: 'That request is no longer kept (the oldest are dropped first).' });
    }
    return true;
  });

  // A page load opened from the timeline: its header row when the requests span several loads,
  // else its first request; the filters that would hide it are cleared.
  const revealLoad = (load: number) => {
    setQueryText('');
    setSearch(undefined);
    setZoom(undefined);
    if (!preserve && latest !== undefined && load < latest) revealEarlierLoads();
    const all = model.all();
    const loads = new Set(all.flatMap((r) => (r.load === undefined ? [] : [r.load])));
    const first = all.find((r) => r.load === load);
    if (!first) {
      setMessage({ kind: 'info', text: `No request of load ${load} is kept.` });
      return;
    }
    setSelectedId(loads.size > 1 ? loadRowId(load) : first.id);
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="network-table"]')?.focus());
  };

  const noReplay = session.offline
    ? 'Read from a file: no app can send it again'
    : !session.active
      ? 'The app is not connected; reconnect it to replay'
      : undefined;

  const maxDetail = Math.max(DETAIL_MIN, (splitRef.current?.clientWidth ?? 1200) - 320);
  const setDetail = (width: number) => {
    setDetailWidth(width);
    try {
      globalThis.localStorage?.setItem(DETAIL_KEY, String(width));
    } catch {
      // kept for this window only
    }
  };

  const ruleCount = config?.rules.length ?? 0;
  const detailShown = tab === 'requests' && selected && selectedShown;

  return (
    <div className="net-panel" data-testid="network-panel">
      <div className="net-bar">
        <div className="tabs net-tabs" role="tablist" aria-label="Network">
          <button type="button" role="tab" aria-selected={tab === 'requests'} onClick={() => setTab('requests')}>
            Requests <span className="muted">{model.size.toLocaleString()}</span>
          </button>
          <button type="button" role="tab" aria-selected={tab === 'mocks'} onClick={() => setTab('mocks')}>
            Mocks{' '}
            <span className="muted">
              {ruleCount}
              {config && !config.enabled ? ' (off)' : ''}
            </span>
          </button>
        </div>
        <span className="spacer" />
        <div className="net-actions" role="toolbar" aria-label="Network actions">
          {dropped.count > 0 && (
            <span
              className="muted small"
              data-testid="net-dropped"
              title="The inspector keeps a bounded number and size of requests per session and under its memory budget (--memory-budget)"
            >
              {dropped.count.toLocaleString()} oldest dropped ({formatBytes(dropped.bytes)})
            </span>
          )}
          <button type="button" onClick={() => void exportHar()} title="Save the shown requests as a HAR file">
            Export HAR
          </button>
          <button
            type="button"
            onClick={() => fileRef.current?.click()}
            title="Open a HAR file as its own offline session"
          >
            Import HAR
          </button>
          <input
            ref={fileRef}
            type="file"
            accept=".har,application/json"
            hidden
            aria-label="HAR file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void importHar(file);
            }}
          />
          <button
            type="button"
            className="danger"
            onClick={() => void act('Clear', async () => void (await api.call('clear', {})))}
            title="Forget this session's requests"
          >
            Clear requests
          </button>
        </div>
      </div>
      {syncFailure && (
        <div className="banner error" role="alert" data-testid="mock-sync-failure">
          A change to the mock rules was not applied in the app: {syncFailure}
          <button type="button" className="link dismiss" onClick={() => setSyncFailure(undefined)}>
            Dismiss
          </button>
        </div>
      )}
      {!loaded && progress && (
        <div className="banner info" role="status" data-testid="network-loading">
          Loading requests… {progress.loaded.toLocaleString()} of {progress.total.toLocaleString()}; new ones are added
          once all are in.
        </div>
      )}
      {message && (
        <div className={`banner ${message.kind === 'error' ? 'error' : 'info'}`} role="status">
          {message.text}
        </div>
      )}
      {tab === 'requests' ? (
        <>
          <FilterBar
            text={queryText}
            query={query}
            onChange={setQueryText}
            vocabulary={vocabulary}
            shown={rows.length}
            total={model.size}
          >
            <PreserveLogBox
              preserve={preserve}
              choose={choosePreserve}
              className="net-preserve"
              title="Keep the requests of earlier page loads (each under its load)"
              testId="network-preserve"
            />
            <SearchBox state={search} onSearch={(q) => void runSearch(q)} onClear={() => setSearch(undefined)} />
            <ColumnMenu
              columns={COLUMNS}
              visible={layout.visible}
              open={menu !== undefined}
              at={menu?.at}
              onOpenChange={(open) => setMenu(open ? {} : undefined)}
              onToggle={toggle}
              onReset={reset}
            />
          </FilterBar>
          {matching.length > 1 && <Overview rows={matching} span={span} range={zoom} onRange={setZoom} />}
          <div
            ref={splitRef}
            className="net-split"
            style={detailShown ? { gridTemplateColumns: `minmax(0, 1fr) auto ${detailWidth}px` } : undefined}
          >
            {!loaded && model.size === 0 ? (
              <div className="empty" data-testid="network-loading" role="status">
                <h2>Loading requests…</h2>
              </div>
            ) : model.size === 0 ? (
              <div className="empty">
                <h2>No requests yet</h2>
                <p className="muted">
                  Requests the app makes with fetch, XMLHttpRequest or Node's http show up here as they happen. Make
                  sure the app passes <code>network()</code> to <code>connect()</code>.
                </p>
              </div>
            ) : rows.length === 0 && matching.length > 0 ? (
              <div className="empty" role="status">
                <h2>No request in the zoomed range</h2>
                <button type="button" onClick={() => setZoom(undefined)}>
                  Reset zoom
                </button>
              </div>
            ) : rows.length === 0 ? (
              <NoMatch
                query={query}
                search={search}
                total={model.size}
                explain={() =>
                  explainEmpty(
                    query,
                    model.entries().filter((r) => !search?.ids || search.ids.has(r.tx.id)),
                  )
                }
                onQuery={setQueryText}
                onClearSearch={() => setSearch(undefined)}
              />
            ) : (
              <TransactionTable
                rows={tableRows}
                span={zoom}
                columns={columns}
                layout={layout}
                selectedId={selectedId}
                onSelect={setSelectedId}
                onOpen={() => detailRef.current?.focus()}
                onExpand={(id, open) => setLoadsOpen((m) => new Map(m).set(Number(id.slice('load:'.length)), open))}
                onSort={sortBy}
                onResize={resize}
                onHeaderMenu={(x, y) => setMenu({ at: { x, y } })}
              />
            )}
            {detailShown && (
              <>
                <Splitter
                  label="Resize the request detail"
                  size={detailWidth}
                  min={DETAIL_MIN}
                  max={maxDetail}
                  onResize={setDetail}
                />
                <TransactionDetail
                  key={selected.id}
                  ref={detailRef}
                  api={api}
                  summary={selected}
                  agentInfo={agentInfo}
                  search={
                    pattern && search?.hits?.get(selected.id)
                      ? { pattern, places: search.hits.get(selected.id)! }
                      : undefined
                  }
                  onClose={() => {
                    setSelectedId(undefined);
                    document.querySelector<HTMLElement>('[data-testid="network-table"]')?.focus();
                  }}
                  onMock={async (tx) => {
                    // A socket's rule replays the messages the app received (the first 1,000).
                    const messages =
                      tx.initiator === 'websocket'
                        ? await api.call('messages', { transactionId: tx.id, direction: 'received', limit: 1000 }).then(
                            (page) => page.messages,
                            () => [],
                          )
                        : [];
                    setEditor({ draft: draftFromTransaction(tx, messages) });
                    setTab('mocks');
                  }}
                  noReplay={noReplay}
                  onReplay={replay}
                  replayOf={
                    selected.replayOf
                      ? {
                          id: selected.replayOf,
                          summary: model.get(selected.replayOf),
                          onSelect: () => selectOriginal(selected.replayOf!),
                        }
                      : undefined
                  }
                />
              </>
            )}
          </div>
        </>
      ) : (
        <MocksView
          api={api}
          config={config}
          active={session.active}
          editor={editor}
          setEditor={setEditor}
          onApplied={() => setSyncFailure(undefined)}
        />
      )}
    </div>
  );
}

/** An empty result says why (which term, or the search) and offers to widen it. */
function NoMatch({
  query,
  search,
  total,
  explain,
  onQuery,
  onClearSearch,
}: {
  query: Query;
  search?: SearchState;
  total: number;
  explain(): { term: string; without: number }[];
  onQuery(text: string): void;
  onClearSearch(): void;
}) {
  const widen = useMemo(explain, [explain]);
  return (
    <div className="empty" data-testid="network-no-match" role="status">
      <h2>No request matches</h2>
      <p className="muted">
        {total.toLocaleString()} requests are kept; none passes{' '}
        {!query.empty && (
          <>
            the filter <code>{query.source.trim()}</code>
          </>
        )}
        {!query.empty && search && ' and '}
        {search && (
          <>
            the search for <code>{search.query.text}</code> in headers and bodies
          </>
        )}
        .
      </p>
      <div className="row" style={{ flexWrap: 'wrap' }}>
        {widen.slice(0, 4).map((w) => (
          <button key={w.term} type="button" onClick={() => onQuery(removeTerm(query.source, w.term))}>
            Remove <code>{w.term}</code> ({w.without.toLocaleString()} match)
          </button>
        ))}
        {!query.empty && (
          <button type="button" onClick={() => onQuery('')}>
            Clear the filter
          </button>
        )}
        {search && (
          <button type="button" onClick={onClearSearch}>
            Clear the search
          </button>
        )}
      </div>
    </div>
  );
}
