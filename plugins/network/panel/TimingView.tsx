import type { Transaction } from '../protocol.js';
import { formatClock, formatDuration } from './format.js';

export interface Phase {
  id: string;
  label: string;
  ms: number;
}

/** Phases the agent may measure, in the order they happen (HAR's timings, DevTools' names). */
const KNOWN: { id: string; label: string }[] = [
  { id: 'blocked', label: 'Queueing' },
  { id: 'dns', label: 'DNS lookup' },
  { id: 'connect', label: 'Initial connection' },
  { id: 'ssl', label: 'SSL/TLS' },
  { id: 'send', label: 'Request sent' },
  { id: 'wait', label: 'Waiting for server response' },
  { id: 'receive', label: 'Content download' },
];

type Timing = Transaction['timing'] & { phases?: Partial<Record<string, number>> };

/**
 * The phases of a transaction: those the agent measured (`timing.phases` when the capture sends
 * them), otherwise what waitMs and durationMs give (waiting, then download).
 */
export function phasesOf(timing: Timing): Phase[] {
  const measured = timing.phases;
  if (measured && Object.values(measured).some((v) => typeof v === 'number' && v >= 0)) {
    return KNOWN.flatMap(({ id, label }) => {
      const ms = measured[id];
      return typeof ms === 'number' && ms >= 0 ? [{ id, label, ms }] : [];
    });
  }
  const phases: Phase[] = [];
  if (timing.waitMs !== undefined) phases.push({ id: 'wait', label: 'Waiting for server response', ms: timing.waitMs });
  if (timing.waitMs !== undefined && timing.durationMs !== undefined)
    phases.push({ id: 'receive', label: 'Content download', ms: Math.max(0, timing.durationMs - timing.waitMs) });
  return phases;
}

/** The Timing tab: when it started, each phase as a bar on one time line, and the total. */
export function TimingView({ tx }: { tx: Transaction }) {
  const timing = tx.timing as Timing;
  const phases = phasesOf(timing);
  const total = timing.durationMs ?? phases.reduce((sum, p) => sum + p.ms, 0);
  let offset = 0;
  return (
    <section className="stack" aria-label="Timing">
      <dl className="kv">
        <dt>Started</dt>
        <dd>{formatClock(timing.startedAt)}</dd>
        <dt>Total</dt>
        <dd>{timing.durationMs === undefined ? 'still running' : formatDuration(timing.durationMs)}</dd>
      </dl>
      {phases.length === 0 ? (
        <p className="muted">{tx.state === 'pending' ? 'Waiting for the response…' : 'The app measured no phases.'}</p>
      ) : (
        <table className="table timing-table">
          <caption className="visually-hidden">Timing phases</caption>
          <thead>
            <tr>
              <th scope="col">Phase</th>
              <th scope="col" className="timing-track-head">
                Time line
              </th>
              <th scope="col" className="num">
                Duration
              </th>
            </tr>
          </thead>
          <tbody>
            {phases.map((p) => {
              const left = total > 0 ? (offset / total) * 100 : 0;
              const width = total > 0 ? (p.ms / total) * 100 : 0;
              offset += p.ms;
              return (
                <tr key={p.id} data-phase={p.id}>
                  <td>{p.label}</td>
                  <td className="timing-track">
                    <span className={`phase ${p.id}`} style={{ left: `${left}%`, width: `max(2px, ${width}%)` }} />
                  </td>
                  <td className="num">{formatDuration(p.ms)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
