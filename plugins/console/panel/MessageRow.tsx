import { useEffect, useState } from 'react';
import { JsonTree } from '../../../renderer/src/components/JsonTree.js';
import { toDisplay } from '../../../renderer/src/components/serialized-value.js';
import type { PanelClient } from '../../../renderer/src/panel-kit.js';
import type { ConsoleProtocol, ConsoleRow, Message, StackFrame } from '../protocol.js';
import { styledPieces } from './css-style.js';
import { isGroup, type LoadHeader } from './model.js';
import { type Place, parseSite } from './source-links.js';

/** Opens a place: in the editor, or the window's source view (`frame`: which frame of the stack; none: the call site). */
export type OpenSource = (seq: number, place: Place, frame?: number) => void;

/** 24-hour time with milliseconds, as DevTools' timestamps. */
export function timeWithMs(time: number): string {
  const d = new Date(time);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** The file and line of a site, without its origin and folders. */
export function shortSite(site: string): string {
  const path = site.replace(/^[a-z]+:\/\/[^/]+/i, '');
  const short = path.split('/').pop() || site;
  return short.replace(/:\d+$/, ''); // file:line, as DevTools shows it
}

/** One line of the console: time, disclosure, repeat count, the (styled) text, the source link; opened below. */
export function MessageRow({
  row,
  load,
  open,
  selected,
  api,
  openSource,
  onToggle,
}: {
  row: ConsoleRow;
  /** The row is a load's header. */
  load?: LoadHeader;
  open: boolean | undefined;
  selected: boolean;
  api: PanelClient<ConsoleProtocol>;
  openSource: OpenSource;
  onToggle(open: boolean): void;
}) {
  const [firstLine] = row.text.split('\n', 1);
  const place = row.site ? parseSite(row.site) : undefined;
  return (
    // biome-ignore lint/a11y/useSemanticElements: the tree grid's one cell per message
    // biome-ignore lint/a11y/useFocusableInteractive: the tree grid holds the focus
    <div
      role="gridcell"
      className={`con-row level-${row.level} kind-${row.kind}${load ? ' con-load' : ''}`}
      data-testid="console-row"
      data-level={row.level}
      data-kind={row.kind}
    >
      <div className="con-line">
        <span className="con-time">{timeWithMs(row.time)}</span>
        {row.group ? <span className="con-indent" style={{ width: row.group * 16 }} /> : null}
        {open === undefined ? (
          <span className="con-toggle" aria-hidden="true" />
        ) : (
          <span
            className="con-toggle"
            aria-hidden="true"
            data-testid="console-toggle"
            onClick={(e) => {
              e.stopPropagation();
              onToggle(!open);
            }}
          >
            {open ? '▾' : '▸'}
          </span>
        )}
        {row.count > 1 && (
          <span className="con-count" title={`${row.count} times`}>
            {row.count.toLocaleString()}
          </span>
        )}
        <span className={`con-text${isGroup(row) ? ' con-group' : ''}`} title={row.text.slice(0, 2000)}>
          {row.styles
            ? styledPieces(firstLine ?? '', row.styles).map(([text, style], i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one text in order
                <span key={i} style={style}>
                  {text}
                </span>
              ))
            : firstLine}
        </span>
        {load && (
          <span className="con-load-count" data-testid="console-load-count">
            {load.messages.toLocaleString()} message{load.messages === 1 ? '' : 's'}
          </span>
        )}
        {row.site && place && (
          <button
            type="button"
            className="link con-site"
            tabIndex={selected ? 0 : -1}
            title={`Open ${row.site}`}
            data-testid="console-source"
            onClick={(e) => {
              e.stopPropagation();
              openSource(row.seq, place);
            }}
          >
            {shortSite(row.site)}
          </button>
        )}
      </div>
      {open && !isGroup(row) && !load && <Opened row={row} api={api} openSource={openSource} selected={selected} />}
    </div>
  );
}

/** What an opened message shows: its whole text, its objects as trees, a table, its stack. Fetched when opened. */
function Opened({
  row,
  api,
  openSource,
  selected,
}: {
  row: ConsoleRow;
  api: PanelClient<ConsoleProtocol>;
  openSource: OpenSource;
  selected: boolean;
}) {
  const [message, setMessage] = useState<Message | null>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    api.call('get', { seq: row.seq }).then(
      (m) => live && setMessage(m),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [api, row.seq]);
  if (error) return <div className="con-opened banner error">{error}</div>;
  if (message === undefined) return <div className="con-opened muted">Loading…</div>;
  if (message === null) return <div className="con-opened muted">This message is no longer stored.</div>;
  const rest = message.text.includes('\n') && !message.stack ? message.text.slice(message.text.indexOf('\n') + 1) : '';
  return (
    <div
      className="con-opened"
      data-testid="console-opened"
      style={row.group ? { marginLeft: row.group * 16 } : undefined}
    >
      {rest && <pre className="con-rest">{rest}</pre>}
      {message.kind === 'table' && message.args[0] !== undefined ? (
        <ConsoleTable value={message.args[0]} columns={message.args[1]} />
      ) : (
        message.args.map((arg, i) =>
          isContainer(arg) ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: arguments have no identity but their place
            <JsonTree key={i} value={toDisplay(arg)} expandDepth={1} label={`Argument ${i + 1}`} />
          ) : null,
        )
      )}
      {message.stack && message.stack.length > 0 && (
        <ol className="con-frames" aria-label="Stack">
          {message.stack.slice(0, 50).map((f, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a stack may repeat a frame
            <li key={i}>
              <FrameLink frame={f} onOpen={(place) => openSource(row.seq, place, i)} selected={selected} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function FrameLink({ frame, onOpen, selected }: { frame: StackFrame; onOpen(place: Place): void; selected: boolean }) {
  const place = frame.mapped ?? frame;
  return (
    <>
      <span className="con-fn">{place.fn || frame.fn || '(anonymous)'}</span>{' '}
      <button
        type="button"
        className="link con-site"
        tabIndex={selected ? 0 : -1}
        onClick={(e) => {
          e.stopPropagation();
          onOpen(place);
        }}
      >
        {place.file}:{place.line}:{place.column}
      </button>
    </>
  );
}

const CONTAINERS = new Set(['object', 'array', 'map', 'set', 'typed', 'error']);
function isContainer(v: unknown): boolean {
  return Array.isArray(v) || (v !== null && typeof v === 'object' && CONTAINERS.has((v as { $?: string }).$ ?? ''));
}

type Tagged = { $?: unknown; [key: string]: unknown };
const MAX_TABLE_ROWS = 200;
const MAX_TABLE_COLUMNS = 30;

/** The rows of a console.table argument: [index, value] for an array or an object's properties. */
function tableRows(value: unknown): [string, unknown][] {
  if (Array.isArray(value)) return value.map((v, i) => [String(i), v]);
  const v = value as Tagged | null;
  if (!v || typeof v !== 'object') return [];
  if (v.$ === 'array' && Array.isArray(v.items)) return v.items.map((x, i) => [String(i), x]);
  if (v.$ === 'map' && Array.isArray(v.entries))
    return v.entries.map((e, i) => [String(i), Array.isArray(e) ? { Key: e[0], Values: e[1] } : e]);
  if (v.$ === 'set' && Array.isArray(v.items)) return v.items.map((x, i) => [String(i), x]);
  const props =
    v.$ === 'object' || v.$ === 'error' ? (v.props as object | undefined) : v.$ === undefined ? v : undefined;
  return props && typeof props === 'object' ? Object.entries(props) : [];
}

function fieldsOf(value: unknown): [string, unknown][] | undefined {
  if (Array.isArray(value)) return value.map((v, i) => [String(i), v]);
  const v = value as Tagged | null;
  if (!v || typeof v !== 'object') return undefined;
  if (v.$ === 'array' && Array.isArray(v.items)) return v.items.map((x, i) => [String(i), x]);
  if (v.$ === 'object' && v.props && typeof v.props === 'object') return Object.entries(v.props);
  if (v.$ === undefined) return Object.entries(v);
  return undefined;
}

/** A cell as DevTools shows it: strings quoted, objects as a short preview. */
function cellText(v: unknown): string {
  if (typeof v === 'string') return `'${v}'`;
  if (v === null || typeof v !== 'object') return String(v);
  const shown = toDisplay(v);
  if (shown && typeof shown === 'object' && 'text' in shown) return String((shown as { text: unknown }).text);
  try {
    return JSON.stringify(shown)?.slice(0, 200) ?? '';
  } catch {
    return '…';
  }
}

/** console.table(data, columns?) as a table: an (index) column, then every field the rows have (or the chosen ones). */
export function ConsoleTable({ value, columns }: { value: unknown; columns?: unknown }) {
  const rows = tableRows(value);
  const chosen =
    Array.isArray(columns) && columns.every((c) => typeof c === 'string') ? (columns as string[]) : undefined;
  const keys: string[] = chosen ? [...chosen] : [];
  let values = false;
  if (!chosen) {
    for (const [, row] of rows.slice(0, MAX_TABLE_ROWS)) {
      const fields = fieldsOf(row);
      if (!fields) values = true;
      else for (const [k] of fields) if (!keys.includes(k) && keys.length < MAX_TABLE_COLUMNS) keys.push(k);
    }
  }
  return (
    <div className="con-table-wrap">
      <table className="con-table" data-testid="console-table">
        <thead>
          <tr>
            <th scope="col">(index)</th>
            {keys.map((k) => (
              <th key={k} scope="col">
                {k}
              </th>
            ))}
            {values && <th scope="col">Value</th>}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, MAX_TABLE_ROWS).map(([index, row]) => {
            const fields = fieldsOf(row);
            const byKey = new Map(fields ?? []);
            return (
              <tr key={index}>
                <th scope="row">{index}</th>
                {keys.map((k) => (
                  <td key={k}>{byKey.has(k) ? cellText(byKey.get(k)) : ''}</td>
                ))}
                {values && <td>{fields ? '' : cellText(row)}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length > MAX_TABLE_ROWS && <div className="muted">{rows.length - MAX_TABLE_ROWS} more rows not shown</div>}
    </div>
  );
}
