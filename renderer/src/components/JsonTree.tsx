import { useState } from 'react';

const PAGE = 100;

/** A leaf shown as its text, without quotes (e.g. `undefined`, `12n`, `[Circular]` in a console value). */
export class Literal {
  constructor(readonly text: string) {}
}

/** A collapsible JSON view; big arrays and objects are shown a page at a time. */
export function JsonTree({ value, expandDepth = 2, label }: { value: unknown; expandDepth?: number; label?: string }) {
  return (
    <section className="json" aria-label={label ?? 'JSON'}>
      <Node value={value} depth={0} expandDepth={expandDepth} />
    </section>
  );
}

function Node({
  name,
  value,
  depth,
  expandDepth,
}: {
  name?: string;
  value: unknown;
  depth: number;
  expandDepth: number;
}) {
  const [open, setOpen] = useState(depth < expandDepth);
  const [shown, setShown] = useState(PAGE);
  const key =
    name === undefined ? null : (
      <>
        <span className="key">{name}</span>:{' '}
      </>
    );
  if (value === null || typeof value !== 'object' || value instanceof Literal) {
    return (
      <div>
        {key}
        <Leaf value={value} />
      </div>
    );
  }
  const isArray = Array.isArray(value);
  const entries = isArray ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  const [openChar, closeChar] = isArray ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    return (
      <div>
        {key}
        {openChar}
        {closeChar}
      </div>
    );
  }
  return (
    <div>
      <button type="button" className="toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? '▾' : '▸'}
      </button>
      {key}
      {openChar}
      {!open && (
        <button type="button" className="toggle" onClick={() => setOpen(true)}>
          {`${entries.length.toLocaleString()} ${isArray ? 'items' : 'keys'}`} {closeChar}
        </button>
      )}
      {open && (
        <>
          <ul>
            {entries.slice(0, shown).map(([k, v]) => (
              <li key={k}>
                <Node name={isArray ? undefined : k} value={v} depth={depth + 1} expandDepth={expandDepth} />
              </li>
            ))}
            {entries.length > shown && (
              <li>
                <button type="button" className="link" onClick={() => setShown(shown + PAGE * 10)}>
                  show {Math.min(PAGE * 10, entries.length - shown).toLocaleString()} more of{' '}
                  {(entries.length - shown).toLocaleString()}
                </button>
              </li>
            )}
          </ul>
          {closeChar}
        </>
      )}
    </div>
  );
}

function Leaf({ value }: { value: unknown }) {
  if (typeof value === 'string') return <span className="string">"{value}"</span>;
  if (typeof value === 'number') return <span className="number">{String(value)}</span>;
  if (value instanceof Literal) return <span className="literal">{value.text}</span>;
  return <span className="literal">{value === undefined ? 'undefined' : String(value)}</span>;
}
