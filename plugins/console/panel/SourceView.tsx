import { useEffect, useRef, useState } from 'react';
import type { PanelClient } from '../../../renderer/src/panel-kit.js';
import type { ConsoleProtocol, SourceText } from '../protocol.js';

const AROUND = 400;

/** A read-only view of the source a message came from, its line marked, as the inspector's source maps have it. */
export function SourceView({
  api,
  seq,
  frame,
  onClose,
}: {
  api: PanelClient<ConsoleProtocol>;
  seq: number;
  frame?: number;
  onClose(): void;
}) {
  const [source, setSource] = useState<SourceText | { missing: string }>();
  const marked = useRef<HTMLLIElement>(null);
  const region = useRef<HTMLElement>(null);
  const root = useRef<HTMLElement>(null);
  // Opened from a link: the focus comes here (Escape closes it and goes back to the messages).
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus again when another message or frame opens here
  useEffect(() => {
    root.current?.focus({ preventScroll: true });
  }, [seq, frame]);
  useEffect(() => {
    let live = true;
    setSource(undefined);
    api.call('source', { seq, ...(frame !== undefined ? { frame } : {}) }).then(
      (s) => live && setSource(s),
      (e: Error) => live && setSource({ missing: e.message }),
    );
    return () => {
      live = false;
    };
  }, [api, seq, frame]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls once the source has arrived
  useEffect(() => {
    // Only the code scrolls (scrollIntoView would move the window's views too).
    const el = region.current;
    const line = marked.current;
    if (el && line) el.scrollTop = line.offsetTop - el.clientHeight / 2; // the region is the line's offsetParent
  }, [source]);

  const lines = source && 'text' in source ? source.text.split('\n') : [];
  const line = source && 'text' in source ? source.line : 0;
  const from = Math.max(1, line - AROUND);
  const to = Math.min(lines.length, line + AROUND);
  return (
    <section
      ref={root}
      className="con-detail con-source"
      aria-label="Source"
      data-testid="console-source-view"
      tabIndex={-1}
    >
      <div className="row con-detail-bar">
        <strong className="con-source-file">
          {source && 'file' in source ? `${source.file}:${source.line}:${source.column}` : 'Source'}
        </strong>
        <span className="grow" />
        <button type="button" onClick={onClose} aria-label="Close the source">
          ✕
        </button>
      </div>
      {!source && <div className="con-detail-body muted">Loading…</div>}
      {source && 'missing' in source && <div className="banner warn">{source.missing}</div>}
      {source && 'text' in source && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        <section ref={region} className="con-detail-body con-code" tabIndex={0} aria-label="Source text">
          {from > 1 && <div className="muted">… {from - 1} lines above</div>}
          <ol start={from}>
            {lines.slice(from - 1, to).map((text, i) => {
              const n = from + i;
              return (
                <li
                  key={n}
                  ref={n === line ? marked : undefined}
                  className={n === line ? 'con-code-line marked' : 'con-code-line'}
                  aria-current={n === line ? 'location' : undefined}
                >
                  <code>{text || ' '}</code>
                </li>
              );
            })}
          </ol>
          {to < lines.length && <div className="muted">… {lines.length - to} lines below</div>}
        </section>
      )}
    </section>
  );
}
