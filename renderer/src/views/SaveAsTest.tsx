import { useEffect, useMemo, useRef, useState } from 'react';
import type { CallDetail, CallSummary } from '../../../shared/bridge.js';
import { type ExportedTest, exportRecordedTest, type TestFramework } from '../../../shared/recorded-test.js';
import { useBridge } from '../bridge/context.js';
import { CopyButton } from '../components/CopyButton.js';
import { useMcp } from '../stores/mcp.js';
import { useSessions } from '../stores/sessions.js';

/** The most calls one test is made of: each is read from the core, and a test longer than this is not read by anyone. */
const MAX_CALLS = 500;

/** `datetime-local` text for a time, to the second, in local time. */
function localInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/**
 * "Save as test…": the calls the history shows (its filters apply: one client, one session), within
 * a time range, as a porthole/client test file that replays them (shared/recorded-test.ts), shown
 * before it is saved or copied.
 */
export function SaveAsTest({ calls }: { calls: CallSummary[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        disabled={calls.length === 0}
        title="Turn the calls shown into a test that replays them"
        onClick={() => setOpen(true)}
      >
        Save as test…
      </button>
      {open && <SaveAsTestDialog calls={calls} onClose={() => setOpen(false)} />}
    </>
  );
}

function SaveAsTestDialog({ calls, onClose }: { calls: CallSummary[]; onClose(): void }) {
  const { client } = useBridge();
  const sessions = useSessions((s) => s.sessions);
  const tools = useMcp((s) => s.tools);
  const dialog = useRef<HTMLDialogElement>(null);
  const oldest = Math.min(...calls.map((c) => c.startedAt));
  const newest = Math.max(...calls.map((c) => c.startedAt));
  const [from, setFrom] = useState(localInput(oldest));
  const [to, setTo] = useState(localInput(newest));
  const [framework, setFramework] = useState<TestFramework>('vitest');
  const [title, setTitle] = useState('');
  const [made, setMade] = useState<ExportedTest>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);

  // The range is to the second, as the inputs show it: its last second is included.
  const chosen = useMemo(() => {
    const start = new Date(from).getTime();
    const end = new Date(to).getTime() + 999;
    return calls.filter((c) => !(c.startedAt < start) && !(c.startedAt > end));
  }, [calls, from, to]);

  const make = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const picked = chosen.slice(0, MAX_CALLS);
      const details: CallDetail[] = [];
      for (const c of picked) details.push((await client.request('history.get', { id: c.id })).call);
      setMade(
        exportRecordedTest({
          framework,
          calls: details,
          sessions: Object.values(sessions),
          tools,
          ...(title.trim() ? { title: title.trim() } : {}),
        }),
      );
    } catch (e) {
      setError(`${(e as Error).message}; the call may have left the history. Try again.`);
    } finally {
      setBusy(false);
    }
  };

  const save = () => {
    if (!made) return;
    const url = URL.createObjectURL(new Blob([made.code], { type: 'text/typescript' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = made.fileName;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  const changed = () => setMade(undefined);
  return (
    <dialog
      ref={dialog}
      className="ask-dialog save-test"
      aria-labelledby="save-test-title"
      data-testid="save-as-test"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id="save-test-title">Save as a test</h2>
      <p className="muted">
        A <span className="mono">porthole/client</span> test that makes these calls again and checks what they answered
        (ids, times and sizes aside). The history's filters apply: filter by client or session first.
      </p>
      <div className="stack">
        <label>
          From{' '}
          <input
            type="datetime-local"
            step={1}
            value={from}
            onChange={(e) => {
              setFrom(e.target.value);
              changed();
            }}
          />
        </label>
        <label>
          To{' '}
          <input
            type="datetime-local"
            step={1}
            value={to}
            onChange={(e) => {
              setTo(e.target.value);
              changed();
            }}
          />
        </label>
        <fieldset>
          <legend>Test runner</legend>
          {(['vitest', 'playwright'] as const).map((f) => (
            <label key={f}>
              <input
                type="radio"
                name="framework"
                value={f}
                checked={framework === f}
                onChange={() => {
                  setFramework(f);
                  changed();
                }}
              />{' '}
              {f === 'vitest' ? 'Vitest (the app runs already)' : 'Playwright (porthole/playwright opens the page)'}
            </label>
          ))}
        </fieldset>
        <label>
          Title{' '}
          <input
            type="text"
            value={title}
            placeholder="what the calls check"
            onChange={(e) => {
              setTitle(e.target.value);
              changed();
            }}
          />
        </label>
        <p data-testid="save-test-count" aria-live="polite">
          {chosen.length.toLocaleString()} of {calls.length.toLocaleString()} calls shown
          {chosen.length > MAX_CALLS ? `; the first ${MAX_CALLS} make the test` : ''}
        </p>
      </div>
      {error && <div className="banner error">{error}</div>}
      {made && (
        <>
          <p data-testid="save-test-summary">
            {made.fileName}: replays {made.replayed} call{made.replayed === 1 ? '' : 's'}
            {made.skipped.length ? `; ${made.skipped.length} not replayed (listed at its top)` : ''}.
          </p>
          <textarea
            className="card mono small save-test-code"
            readOnly
            rows={16}
            aria-label="The test"
            data-testid="save-test-code"
            value={made.code}
          />
        </>
      )}
      <div className="row">
        <button type="button" className="primary" disabled={busy || chosen.length === 0} onClick={() => void make()}>
          {busy ? 'Making…' : made ? 'Make it again' : 'Make the test'}
        </button>
        <button type="button" disabled={!made} onClick={save}>
          Save file
        </button>
        <CopyButton text={made?.code} disabled={!made} />
        <span className="spacer" />
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
