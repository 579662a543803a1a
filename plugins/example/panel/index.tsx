import { useEffect, useState } from 'react';
import { ImagePreview } from '../../../renderer/src/components/ImagePreview.js';
import { JsonTree } from '../../../renderer/src/components/JsonTree.js';
import { type PanelProps, usePanelClient, usePluginEvents } from '../../../renderer/src/panel-kit.js';
import { formatTimeOfDay } from '../../../renderer/src/time.js';
import { exampleProtocol, type LogEntry, type Screenshot } from '../protocol.js';

const MAX_ENTRIES = 1000;
const SHOWN_ENTRIES = 300;

/** The example plugin's panel: ping with its round trip, a screenshot of the app, and the app's event log. */
export default function ExamplePanel({ session }: PanelProps) {
  const api = usePanelClient(exampleProtocol, session.id);
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const [pings, setPings] = useState<number[]>([]);
  const [shot, setShot] = useState<Screenshot>();
  const [busy, setBusy] = useState<'ping' | 'shot'>();
  const [error, setError] = useState<string>();
  const [filter, setFilter] = useState('');

  // What the host kept, then what arrives: entries only ever grow at the end.
  useEffect(() => {
    api.call('log', {}).then(
      (log) => setEntries(log.entries),
      (e: Error) => setError(e.message),
    );
  }, [api]);
  usePluginEvents(exampleProtocol, session.id, (events) => {
    const added = events.filter((e) => e.event === 'log').map((e) => e.data);
    setEntries((list) => [...list, ...added].slice(-MAX_ENTRIES));
  });

  const run = async (what: 'ping' | 'shot') => {
    setBusy(what);
    setError(undefined);
    try {
      if (what === 'ping') {
        const { roundTripMs } = await api.call('ping', {});
        setPings((list) => [roundTripMs, ...list].slice(0, 5));
      } else {
        setShot(await api.call('captureScreenshot', {}));
      }
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(undefined);
    }
  };

  const needle = filter.toLowerCase();
  const shown = entries.filter((e) => `${e.level} ${e.message}`.toLowerCase().includes(needle));
  const idle = session.active && !busy;

  return (
    <div className="view stack" data-testid="example-panel">
      <div className="row">
        <button type="button" className="primary" disabled={!idle} onClick={() => void run('ping')}>
          {busy === 'ping' ? 'Pinging…' : 'Ping'}
        </button>
        {pings.length > 0 && (
          <span data-testid="ping-result">
            Round trip <strong>{pings[0]} ms</strong>
            {pings.length > 1 && <span className="muted"> · previous {pings.slice(1).join(', ')} ms</span>}
          </span>
        )}
        <span className="spacer" />
        <button type="button" disabled={!idle} onClick={() => void run('shot')}>
          {busy === 'shot' ? 'Capturing…' : 'Take screenshot'}
        </button>
      </div>
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      {shot && (
        <section className="card" aria-label="Screenshot">
          <ImagePreview
            src={`data:${shot.mimeType};base64,${shot.base64}`}
            alt={`Screenshot of ${session.app.name}`}
            mimeType={`${shot.mimeType} · ${Math.round((shot.base64.length * 3) / 4 / 1024)} KB`}
          />
        </section>
      )}
      <section className="card stack" aria-label="Event log">
        <div className="row">
          <h3>Event log</h3>
          <span className="muted small">{entries.length.toLocaleString()} entries</span>
          <span className="spacer" />
          <input
            type="search"
            placeholder="Filter (press /)"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            data-filter
          />
        </div>
        {shown.length === 0 ? (
          <p className="muted">
            {entries.length === 0
              ? 'Nothing logged yet. In the app: plugin.log("info", "something happened", { any: "data" })'
              : 'No entry matches the filter.'}
          </p>
        ) : (
          <div className="log" role="log">
            {shown
              .slice(-SHOWN_ENTRIES)
              .reverse()
              .map((entry, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id; the list only grows at the end
                <EntryRow key={`${entry.time}-${shown.length - i}`} entry={entry} />
              ))}
          </div>
        )}
      </section>
    </div>
  );
}

/** One log entry; a click shows its data. */
function EntryRow({ entry }: { entry: LogEntry }) {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <button type="button" className="entry list-item" onClick={() => setOpen(!open)}>
        <span className="muted">{formatTimeOfDay(entry.time)}</span>
        <span className={`level-${entry.level}`}>{entry.level}</span>
        <span>{entry.message}</span>
      </button>
      {open && entry.data !== undefined && (
        <div className="pane">
          <JsonTree value={entry.data} />
        </div>
      )}
    </div>
  );
}
