import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { type GridColumn, VirtualGrid } from '../../../renderer/src/components/VirtualGrid.js';
import { type PanelProps, usePanelClient, usePluginEvents } from '../../../renderer/src/panel-kit.js';
import { type Area, type KeyInfo, type KeyPage, storageProtocol } from '../protocol.js';
import { areaLabel, formatSize, groupAreas, searchKeys } from './model.js';
import { ValueDetail } from './ValueDetail.js';
import './storage.css';

/** Keys read per page; the panel reads more on demand. */
const PAGE = 500;

const columns: GridColumn<KeyInfo>[] = [
  {
    id: 'key',
    title: 'Key',
    width: 160,
    minWidth: 100,
    cell: (k) => <span className="mono">{k.key}</span>,
    tooltip: (k) => k.key,
  },
  {
    id: 'value',
    title: 'Value',
    width: 220,
    minWidth: 100,
    cell: (k) => (
      <span className="mono st-preview">
        {k.preview}
        {k.previewCut ? '…' : ''}
      </span>
    ),
  },
  { id: 'size', title: 'Size', width: 64, minWidth: 56, align: 'right', cell: (k) => formatSize(k.size) },
];
const rowKey = (k: KeyInfo) => k.key;

/** What the app keeps: its areas on the left, an area's keys with a search, a key's value, live. */
export default function StoragePanel({ session }: PanelProps) {
  const api = usePanelClient(storageProtocol, session.id);
  const [areas, setAreas] = useState<Area[]>();
  const [area, setArea] = useState<string>();
  const [page, setPage] = useState<KeyPage>();
  const [keys, setKeys] = useState<KeyInfo[]>([]);
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<string>();
  const [valueVersion, setValueVersion] = useState(0);
  const [error, setError] = useState<string>();
  const [adding, setAdding] = useState<{ key: string; value: string }>();
  const [clearing, setClearing] = useState(false);
  const searchId = useId();
  const addKeyId = useId();
  const addValueId = useId();
  const current = areas?.find((a) => a.area === area);

  const loadAreas = useCallback(async () => {
    try {
      const list = (await api.call('areas', {})).areas;
      setAreas(list);
      setArea((chosen) => chosen ?? list.find((a) => !a.error)?.area);
    } catch (e) {
      setError(`Could not list the app's storage: ${(e as Error).message}`);
    }
  }, [api]);

  // Only the last read of the area shown lands: an earlier one (a live update of the area left a
  // moment ago) answering late would put another area's keys under this one.
  const shownArea = useRef(area);
  shownArea.current = area;
  const reads = useRef(0);

  /** Reads the area's keys again, as many as were shown (at least a page). */
  const loadKeys = useCallback(
    async (name: string, shown = PAGE) => {
      const read = ++reads.current;
      const stale = () => read !== reads.current || name !== shownArea.current;
      try {
        let list: KeyInfo[] = [];
        let last: KeyPage | undefined;
        do {
          last = await api.call('keys', { area: name, after: last?.after, limit: PAGE });
          list = [...list, ...last.keys];
        } while (last.after !== undefined && list.length < shown && !stale());
        if (stale()) return;
        setPage(last);
        setKeys(list);
        setError(undefined);
      } catch (e) {
        if (!stale()) setError(`Could not read ${name}: ${(e as Error).message}`);
      }
    },
    [api],
  );

  useEffect(() => {
    if (session.active) void loadAreas();
  }, [loadAreas, session.active]);
  useEffect(() => {
    setKeys([]);
    setPage(undefined);
    setSelected(undefined);
    setSearch('');
    setClearing(false);
    if (area && session.active) void loadKeys(area);
  }, [area, loadKeys, session.active]);

  // The app's writes: the area shown is read again (at most every 300 ms), the open value too.
  const pending = useRef<{ keys: boolean; areas: boolean; timer?: ReturnType<typeof setTimeout> }>({
    keys: false,
    areas: false,
  });
  const shownCount = useRef(0);
  shownCount.current = keys.length;
  usePluginEvents(storageProtocol, session.id, (events) => {
    const p = pending.current;
    for (const { data } of events) {
      for (const change of data.changes) {
        p.areas = true;
        if (change.area !== area) continue;
        p.keys = true;
        if (change.key === undefined || change.key === selected) setValueVersion((v) => v + 1);
      }
    }
    p.timer ??= setTimeout(() => {
      p.timer = undefined;
      if (p.keys && area) void loadKeys(area, Math.max(PAGE, shownCount.current));
      if (p.areas) void loadAreas();
      p.keys = p.areas = false;
    }, 300);
  });
  useEffect(() => () => clearTimeout(pending.current.timer), []);

  const shown = useMemo(() => searchKeys(keys, search), [keys, search]);
  const readOnly = current?.readOnly === true || !session.active;

  const add = async () => {
    if (!adding || !area) return;
    try {
      const change = await api.call('set', { area, key: adding.key, value: adding.value });
      setAdding(undefined);
      await loadKeys(area, Math.max(PAGE, keys.length + 1));
      setSelected(change.after.key);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const clear = async () => {
    if (!area) return;
    try {
      await api.call('remove', { area, clear: true });
      setClearing(false);
      setSelected(undefined);
      await loadKeys(area);
      await loadAreas();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  if (!session.active && !areas) {
    return (
      <div className="view" data-testid="storage-panel">
        <div className="empty">The app is not connected: its storage is read from the app itself, live.</div>
      </div>
    );
  }

  return (
    <div className="view st-panel" data-testid="storage-panel">
      <nav className="st-areas" aria-label="Storage areas">
        <div className="st-areas-head">
          <strong>Storage</strong>
          <span className="spacer" />
          <button type="button" onClick={() => void loadAreas()} disabled={!session.active}>
            Refresh
          </button>
        </div>
        {!areas ? (
          <p className="muted st-pad">Loading…</p>
        ) : areas.length === 0 ? (
          <p className="muted st-pad" data-testid="storage-no-areas">
            This app has no storage the plugin can see. In Node, pass your stores as adapters:{' '}
            <code>storage({'{ adapters }'})</code>.
          </p>
        ) : (
          groupAreas(areas).map(({ group, areas: list }) => (
            <section key={group} aria-label={group}>
              <h3 className="st-group">{group}</h3>
              <ul className="plain-list">
                {list.map((a) => (
                  <li key={a.area}>
                    <button
                      type="button"
                      className="st-area"
                      aria-current={a.area === area ? 'true' : undefined}
                      onClick={() => setArea(a.area)}
                      title={a.error ?? a.note ?? a.area}
                      data-testid="storage-area"
                      data-area={a.area}
                    >
                      <span className="st-area-name">{areaLabel(a)}</span>
                      <span className="muted small">
                        {a.error
                          ? 'unavailable'
                          : `${a.count ?? '?'}${a.size !== undefined ? ` · ${formatSize(a.size)}` : ''}`}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          ))
        )}
      </nav>
      <div className="st-main">
        {error && (
          <div className="banner error" role="alert">
            {error}
          </div>
        )}
        {current && (
          <>
            <div className="st-bar" role="toolbar" aria-label={`${areaLabel(current)} keys`}>
              <label htmlFor={searchId} className="visually-hidden">
                Search keys and values
              </label>
              <input
                id={searchId}
                type="search"
                placeholder="Search keys and values"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                data-testid="storage-search"
              />
              <span className="muted small" data-testid="storage-count">
                {search ? `${shown.length} of ` : ''}
                {page ? `${page.total} key${page.total === 1 ? '' : 's'}` : ''}
                {page?.totalSize !== undefined ? ` · ${formatSize(page.totalSize)}` : ''}
                {page && keys.length < page.total ? ` · ${keys.length} read` : ''}
              </span>
              <span className="spacer" />
              {!readOnly && (
                <button type="button" onClick={() => setAdding({ key: '', value: '' })} data-testid="storage-add">
                  Add
                </button>
              )}
              {!readOnly &&
                (clearing ? (
                  <>
                    <button
                      type="button"
                      className="danger"
                      onClick={() => void clear()}
                      data-testid="storage-clear-confirm"
                    >
                      Remove all {page?.total ?? ''} keys
                    </button>
                    <button type="button" onClick={() => setClearing(false)}>
                      Keep
                    </button>
                  </>
                ) : (
                  <button type="button" onClick={() => setClearing(true)} data-testid="storage-clear">
                    Clear…
                  </button>
                ))}
            </div>
            {(current.note || current.error) && (
              <p className={`st-note small ${current.error ? 'banner error' : 'muted'}`} data-testid="storage-note">
                {current.error ?? current.note}
              </p>
            )}
            {adding && (
              <fieldset className="st-editor stack" aria-label="Add a key">
                <label htmlFor={addKeyId}>Key</label>
                <input
                  id={addKeyId}
                  value={adding.key}
                  onChange={(e) => setAdding({ ...adding, key: e.target.value })}
                  data-testid="storage-add-key"
                />
                <label htmlFor={addValueId}>
                  Value{' '}
                  <span className="muted small">
                    {current.kind === 'indexedDB' ? '(JSON, stored parsed)' : '(written as this text)'}
                  </span>
                </label>
                <textarea
                  id={addValueId}
                  className="mono"
                  rows={4}
                  value={adding.value}
                  onChange={(e) => setAdding({ ...adding, value: e.target.value })}
                  data-testid="storage-add-value"
                />
                <div className="row">
                  <button
                    type="button"
                    className="primary"
                    disabled={!adding.key && current.kind !== 'indexedDB'}
                    onClick={() => void add()}
                    data-testid="storage-add-save"
                  >
                    Save
                  </button>
                  <button type="button" onClick={() => setAdding(undefined)}>
                    Cancel
                  </button>
                </div>
              </fieldset>
            )}
            <div className="st-split">
              <div className="st-table">
                {keys.length === 0 ? (
                  <div className="empty" data-testid="storage-empty">
                    {page ? 'No keys.' : 'Reading…'}
                  </div>
                ) : (
                  <VirtualGrid
                    label={`Keys of ${areaLabel(current)}`}
                    testId="storage-keys"
                    rowTestId="storage-key"
                    rows={shown}
                    rowKey={rowKey}
                    columns={columns}
                    template="minmax(100px, 1fr) minmax(100px, 2fr) 64px"
                    selectedKey={selected}
                    onSelect={setSelected}
                  />
                )}
              </div>
              {page?.after !== undefined && (
                <button
                  type="button"
                  className="st-more"
                  onClick={() => area && void loadKeys(area, keys.length + PAGE)}
                  data-testid="storage-more"
                >
                  Read {Math.min(PAGE, page.total - keys.length)} more keys
                </button>
              )}
              {selected !== undefined && area && (
                <ValueDetail
                  key={`${area}\n${selected}`}
                  api={api}
                  area={area}
                  itemKey={selected}
                  version={valueVersion}
                  readOnly={readOnly}
                  onRemoved={() => {
                    setSelected(undefined);
                    void loadKeys(area, Math.max(PAGE, keys.length));
                  }}
                  onClose={() => setSelected(undefined)}
                />
              )}
            </div>
          </>
        )}
      </div>
    </div>
  );
}
