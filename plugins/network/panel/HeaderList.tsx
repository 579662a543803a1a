import { useState } from 'react';
import type { SafeRegex } from '../../../shared/safe-regex.js';
import { type Header, REDACTED } from '../protocol.js';
import { Marked } from './Marked.js';

const MASK = '••••••••';

/**
 * A header list, parsed (name/value) or raw (as on the wire). Values the app hides from MCP
 * (redaction scope `mcp`) reached the inspector: masked here until the person reveals them, one
 * (its own Reveal) or all. Nothing here reaches an agent: MCP answers are redacted in the host.
 * Values redacted in the app (scope `all`) never left it, and the list says so.
 */
export function HeaderList({
  title,
  headers,
  raw,
  sensitive,
  redactedInApp,
  pattern,
}: {
  title: string;
  headers?: Header[];
  /** The raw view's first line (request or status line); absent: the parsed view. */
  raw?: string;
  sensitive?: string[];
  redactedInApp?: string[];
  pattern?: SafeRegex;
}) {
  const [revealed, setRevealed] = useState(false);
  /** Positions of the values revealed one by one. */
  const [one, setOne] = useState<ReadonlySet<number>>(new Set());
  const hidden = new Set(sensitive?.map((h) => h.toLowerCase()));
  const isHidden = (h: Header) => hidden.has(h.name.toLowerCase()) && h.value !== REDACTED;
  const inApp = (h: Header) => h.value === REDACTED && (!redactedInApp || redactedInApp.includes(h.name.toLowerCase()));
  const anyHidden = headers?.some(isHidden) ?? false;
  const anyInApp = headers?.some(inApp) ?? false;
  const masked = (h: Header, i: number) => isHidden(h) && !revealed && !one.has(i);
  const value = (h: Header, i: number) => (masked(h, i) ? MASK : h.value);
  const toggleOne = (i: number) =>
    setOne((s) => {
      const next = new Set(s);
      if (!next.delete(i)) next.add(i);
      return next;
    });
  return (
    <section aria-label={title} className="stack" style={{ gap: 6 }}>
      <div className="row">
        <h3>
          {title} {headers?.length ? <span className="muted small">({headers.length})</span> : null}
        </h3>
        <span className="spacer" />
        {anyHidden && (
          <button type="button" className="link small" aria-pressed={revealed} onClick={() => setRevealed(!revealed)}>
            {revealed ? 'Hide redacted values' : 'Reveal all redacted values'}
          </button>
        )}
      </div>
      {anyHidden && (
        <p className="note small" data-testid="redaction-note">
          <span className="badge warn">redacted</span> Values marked redacted are hidden from AI agents (MCP) and
          exports; this window may show them.
        </p>
      )}
      {anyInApp && (
        <p className="note small" data-testid="redacted-in-app">
          <span className="badge warn">redacted in the app</span> The app's agent replaced these values before sending
          them (redaction scope <code>all</code>), so they never left the app and cannot be shown. To see them here, set{' '}
          <code>
            network({'{'} redact: {'{'} scope: 'mcp' {'}'} {'}'})
          </code>{' '}
          in the app.
        </p>
      )}
      {!headers?.length ? (
        <p className="muted">None.</p>
      ) : raw !== undefined ? (
        <pre className="code-block" data-testid="raw-headers">
          <Marked text={[raw, ...headers.map((h, i) => `${h.name}: ${value(h, i)}`)].join('\n')} pattern={pattern} />
        </pre>
      ) : (
        <dl className="kv mono small headers">
          {headers.map((h, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: headers repeat (set-cookie); position is their identity
            <div key={i} style={{ display: 'contents' }}>
              <dt>
                <Marked text={h.name} pattern={pattern} />
              </dt>
              <dd>
                {isHidden(h) && (
                  <>
                    <span className="badge warn" title="Hidden from AI agents (MCP) and exports">
                      redacted
                    </span>{' '}
                    {!revealed && (
                      <button
                        type="button"
                        className="link small"
                        aria-pressed={one.has(i)}
                        aria-label={`${one.has(i) ? 'Hide' : 'Reveal'} the value of ${h.name}`}
                        title="Only this window shows it; AI agents and exports never get it"
                        onClick={() => toggleOne(i)}
                      >
                        {one.has(i) ? 'Hide' : 'Reveal'}
                      </button>
                    )}
                  </>
                )}
                {inApp(h) && (
                  <span className="badge warn" title="Replaced in the app; the value never left it">
                    redacted in the app
                  </span>
                )}{' '}
                {inApp(h) ? (
                  <span className="muted">value not sent</span>
                ) : (
                  <Marked text={value(h, i)} pattern={masked(h, i) ? undefined : pattern} />
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
