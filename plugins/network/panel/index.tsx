import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { type PanelEvent, type PanelProps, usePanelClient, usePluginEvents } from '../../../renderer/src/panel-kit.js';
import type { MockConfigView, TransactionFilter, TransactionSummary } from '../protocol.js';
import { networkProtocol } from '../protocol.js';
import { FilterBar } from './FilterBar.js';
import { type EditorState, MocksView } from './MocksView.js';
import { draftFromTransaction } from './mock-form.js';
import { type NetworkFilter, NO_FILTER, TransactionModel } from './model.js';
import { TransactionDetail } from './TransactionDetail.js';
import { TransactionTable } from './TransactionTable.js';
import './network.css';

const PAGE = 5000;
/** The bridge carries frames up to 16 MiB; a HAR file is sent as text. */
const MAX_HAR_BYTES = 15 * 1024 * 1024;

/** The network panel: live requests (virtualized, filtered), their details, and the app's mock rules. */
export default function NetworkPanel({ session }: PanelProps) {
  const api = usePanelClient(networkProtocol, session.id);
  const model = useMemo(() => new TransactionModel(), []);
  useSyncExternalStore(model.subscribe, model.getVersion);
  const [filter, setFilter] = useState<NetworkFilter>(NO_FILTER);
  const [selectedId, setSelectedId] = useState<string>();
  const [tab, setTab] = useState<'requests' | 'mocks'>('requests');
  const [config, setConfig] = useState<MockConfigView>();
  const [editor, setEditor] = useState<EditorState>();
  const [syncFailure, setSyncFailure] = useState<string>();
  const [dropped, setDropped] = useState(0);
  const [message, setMessage] = useState<{ kind: 'error' | 'info'; text: string }>();
  const loading = useRef<PanelEvent<typeof networkProtocol>[] | undefined>([]);
  const fileRef = useRef<HTMLInputElement>(null);

  const apply = (events: PanelEvent<typeof networkProtocol>[]) => {
    const upserts: TransactionSummary[] = [];
    const flush = () => model.upsert(upserts.splice(0));
    const hits: Record<string, number> = {};
    for (const e of events) {
      switch (e.event) {
        case 'transaction': {
          const { change, transaction } = e.data;
          upserts.push(transaction);
          // The host counts a hit when a mocked request starts; the panel keeps up without asking.
          if (change === 'added' && transaction.mockRuleId && !transaction.imported) {
            hits[transaction.mockRuleId] = (hits[transaction.mockRuleId] ?? 0) + 1;
          }
          break;
        }
        case 'dropped':
          flush();
          model.dropOldest(e.data.count);
          setDropped(e.data.totalDropped);
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
          setMessage({ kind: 'info', text: `Imported ${e.data.count} requests from a HAR file.` });
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
        } while (cursor);
        const [mocks, stats] = await Promise.all([api.call('mockConfig', {}), api.call('stats', {})]);
        if (!live) return;
        setConfig(mocks);
        if (mocks.sync.state === 'failed') setSyncFailure(mocks.sync.error);
        setDropped(stats.dropped);
      } catch (e) {
        if (live) setMessage({ kind: 'error', text: `Could not load the requests: ${(e as Error).message}` });
      } finally {
        const buffered = loading.current ?? [];
        loading.current = undefined;
        if (live) apply(buffered);
      }
    })();
    return () => {
      live = false;
    };
  }, [api, model]);

  const rows = model.filtered(filter);
  const selected = selectedId ? model.get(selectedId) : undefined;

  const act = async (what: string, action: () => Promise<string | undefined>) => {
    setMessage(undefined);
    try {
      const info = await action();
      if (info) setMessage({ kind: 'info', text: info });
    } catch (e) {
      setMessage({ kind: 'error', text: `${what} failed: ${(e as Error).message}` });
    }
  };

  const exportHar = () =>
    act('Export', async () => {
      const har = await api.call('exportHar', { filter: toHostFilter(filter) });
      const name = `${session.app.name.replace(/[^\w.-]+/g, '-')}-${new Date().toISOString().replace(/[:.]/g, '-')}.har`;
      const url = URL.createObjectURL(new Blob([JSON.stringify(har, null, 2)], { type: 'application/json' }));
      const link = Object.assign(document.createElement('a'), { href: url, download: name });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      return `Exported ${har.log.entries.length} requests to ${name}.`;
    });

  const importHar = (file: File) =>
    act('Import', async () => {
      if (file.size > MAX_HAR_BYTES) throw new Error(`${file.name} is larger than 15 MB; import a smaller HAR file`);
      await api.call('importHar', { har: await file.text(), source: file.name });
      return undefined;
    });

  const ruleCount = config?.rules.length ?? 0;

  return (
    <div className="net-panel" data-testid="network-panel">
      <div className="tabs net-tabs" role="tablist">
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
        <span className="spacer" />
        <div className="net-actions">
          {dropped > 0 && (
            <span className="muted small" title="The inspector keeps a bounded number of requests per session">
              {dropped.toLocaleString()} oldest dropped
            </span>
          )}
          <button type="button" onClick={() => void exportHar()} title="Save the shown requests as a HAR file">
            Export HAR
          </button>
          <button type="button" onClick={() => fileRef.current?.click()} title="Open a HAR file for offline viewing">
            Import HAR
          </button>
          <input
            ref={fileRef}
            type="file"
            accept=".har,application/json"
            hidden
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
      {message && (
        <div className={`banner ${message.kind === 'error' ? 'error' : 'info'}`} role="status">
          {message.text}
        </div>
      )}
      {tab === 'requests' ? (
        <>
          <FilterBar filter={filter} onChange={setFilter} shown={rows.length} total={model.size} />
          <div className={`net-split${selected ? ' with-detail' : ''}`}>
            {model.size === 0 ? (
              <div className="empty">
                <h2>No requests yet</h2>
                <p className="muted">
                  Requests the app makes with fetch, XMLHttpRequest or Node's http show up here as they happen. Make
                  sure the app passes <code>network()</code> to <code>connect()</code>.
                </p>
              </div>
            ) : (
              <TransactionTable rows={rows} selectedId={selectedId} onSelect={setSelectedId} />
            )}
            {selected && (
              <TransactionDetail
                key={selected.id}
                api={api}
                summary={selected}
                onClose={() => setSelectedId(undefined)}
                onMock={(tx) => {
                  setEditor({ draft: draftFromTransaction(tx) });
                  setTab('mocks');
                }}
              />
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

/** The filter bar as the host's filter (for the HAR export); "pending" has no host equivalent. */
function toHostFilter(f: NetworkFilter): TransactionFilter {
  const digit = Number(f.statusClass[0]);
  return {
    urlContains: f.text.trim() || undefined,
    method: f.method || undefined,
    status: Number.isInteger(digit) && digit > 0 ? { min: digit * 100, max: digit * 100 + 99 } : undefined,
    failedOnly: f.failedOnly || undefined,
    mockedOnly: f.mockedOnly || undefined,
  };
}
