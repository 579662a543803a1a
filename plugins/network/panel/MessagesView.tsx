import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { JsonTree } from '../../../renderer/src/components/JsonTree.js';
import { type GridColumn, VirtualGrid } from '../../../renderer/src/components/VirtualGrid.js';
import type { PanelClient } from '../../../renderer/src/panel-kit.js';
import type { Message, NetworkProtocol, TransactionSummary } from '../protocol.js';
import { formatBytes, formatClock } from './format.js';
import {
  appendMessages,
  filterMessages,
  type MessageFilter,
  messageJson,
  messagePreview,
  OPCODES,
} from './messages.js';

const PAGE = 1000;

/**
 * A WebSocket's messages or an event stream's events, as DevTools' Messages tab: live while the
 * connection is open, filtered by direction and text or /regex/, one selected shown whole (JSON as a
 * tree, socket.io framing decoded, binary as base64).
 */
export function MessagesView({ api, summary }: { api: PanelClient<NetworkProtocol>; summary: TransactionSummary }) {
  const [held, setHeld] = useState<Message[]>([]);
  const [dropped, setDropped] = useState(0);
  const [error, setError] = useState<string>();
  const [filter, setFilter] = useState<MessageFilter>({ direction: 'all', text: '' });
  const [selected, setSelected] = useState<string>();
  const ids = useId();
  const stream = summary.initiator !== 'websocket';
  /** The connection and its last message the tab holds: the next fetch starts after it. */
  const last = useRef<{ id: string; n?: number }>({ id: summary.id });
  if (last.current.id !== summary.id) last.current = { id: summary.id };

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new connection starts empty
  useEffect(() => {
    setHeld([]);
    setSelected(undefined);
  }, [summary.id]);

  // Each change of the connection (its message count, its end) fetches what came after the last one held.
  // biome-ignore lint/correctness/useExhaustiveDependencies: summary.messages and state are the triggers
  useEffect(() => {
    let live = true;
    const id = summary.id;
    const load = async () => {
      for (let pages = 0; pages < 20 && live; pages++) {
        const after = last.current.id === id ? last.current.n : undefined;
        const page = await api.call('messages', {
          transactionId: id,
          limit: PAGE,
          ...(after === undefined ? {} : { cursor: `m:${after}` }),
        });
        if (!live || last.current.id !== id) return;
        setDropped(page.dropped);
        const end = page.messages.at(-1);
        if (end) last.current = { id, n: end.n };
        setHeld((h) => appendMessages(h, page.messages));
        if (!page.nextCursor || !end) return;
      }
    };
    load().catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [api, summary.id, summary.messages, summary.state]);

  const shown = useMemo(() => filterMessages(held, filter), [held, filter]);
  const current = selected === undefined ? undefined : held.find((m) => String(m.n) === selected);
  const columns = useMemo<GridColumn<Message>[]>(
    () => [
      {
        id: 'dir',
        title: '',
        width: 28,
        minWidth: 28,
        cell: (m) => (
          <span className={`msg-dir ${m.direction}`} title={m.direction === 'sent' ? 'Sent by the app' : 'Received'}>
            {m.direction === 'sent' ? '↑' : '↓'}
          </span>
        ),
      },
      ...(stream
        ? [
            { id: 'event', title: 'Event', width: 96, minWidth: 48, cell: (m: Message) => m.event ?? 'message' },
            { id: 'id', title: 'Id', width: 64, minWidth: 32, cell: (m: Message) => m.eventId ?? '' },
          ]
        : []),
      {
        id: 'data',
        title: 'Data',
        width: 240,
        minWidth: 120,
        cell: (m) => <span className={m.encoding === 'base64' ? 'muted' : 'mono'}>{messagePreview(m)}</span>,
        tooltip: (m) => (m.encoding === 'text' ? m.data.slice(0, 2000) : undefined),
      },
      { id: 'length', title: 'Length', width: 72, minWidth: 48, align: 'right', cell: (m) => formatBytes(m.size) },
      { id: 'time', title: 'Time', width: 104, minWidth: 72, cell: (m) => formatClock(m.time) },
    ],
    [stream],
  );
  const template = columns.map((c) => (c.id === 'data' ? `minmax(${c.width}px, 1fr)` : `${c.width}px`)).join(' ');
  const json = current && messageJson(current);

  return (
    <section className="stack net-messages" aria-label={stream ? 'Events' : 'Messages'} style={{ gap: 6 }}>
      <div className="row" role="toolbar" aria-label="Message filters">
        <label className="visually-hidden" htmlFor={`${ids}-dir`}>
          Direction
        </label>
        <select
          id={`${ids}-dir`}
          value={filter.direction}
          onChange={(e) => setFilter({ ...filter, direction: e.target.value as MessageFilter['direction'] })}
        >
          <option value="all">All</option>
          <option value="sent">Sent</option>
          <option value="received">Received</option>
        </select>
        <input
          type="search"
          aria-label="Filter messages (text or /regex/)"
          placeholder="Filter (text or /regex/)"
          value={filter.text}
          onChange={(e) => setFilter({ ...filter, text: e.target.value })}
          aria-invalid={shown.error ? true : undefined}
          data-testid="messages-filter"
        />
        <span className="small muted" data-testid="messages-count" aria-live="polite">
          {shown.rows.length === held.length
            ? `${held.length.toLocaleString()} ${stream ? 'events' : 'messages'}`
            : `${shown.rows.length.toLocaleString()} of ${held.length.toLocaleString()}`}
          {dropped > 0 ? ` · ${dropped.toLocaleString()} older not kept` : ''}
          {summary.state === 'pending' ? ' · live' : ''}
        </span>
      </div>
      {shown.error && <div className="banner error">{shown.error}</div>}
      {error && <div className="banner error">{error}</div>}
      {held.length === 0 ? (
        <p className="muted">{summary.state === 'pending' ? 'No messages yet: waiting…' : 'No messages.'}</p>
      ) : (
        <div className="net-messages-grid">
          <VirtualGrid
            label={stream ? 'Events' : 'Messages'}
            testId="messages-table"
            rowTestId="message-row"
            rows={shown.rows}
            rowKey={(m) => String(m.n)}
            rowClassName={(m) => `msg ${m.direction}`}
            columns={columns}
            template={template}
            selectedKey={selected}
            onSelect={setSelected}
            followTail
          />
        </div>
      )}
      {current && (
        <section
          className="stack msg-detail"
          aria-label="Selected message"
          data-testid="message-detail"
          style={{ gap: 4 }}
        >
          <div className="row small muted">
            <span>
              {current.direction === 'sent' ? 'Sent' : 'Received'} {formatClock(current.time)}
            </span>
            <span>· {formatBytes(current.size)}</span>
            {current.opcode !== undefined && <span>· {OPCODES[current.opcode] ?? `opcode ${current.opcode}`}</span>}
            {current.truncated && <span className="badge warn">only its start was kept</span>}
          </div>
          {current.socketio && <JsonTree value={current.socketio} label="socket.io frame" expandDepth={3} />}
          {json !== undefined ? (
            <JsonTree value={json} label="Message JSON" />
          ) : (
            <pre className="mono small msg-data">
              {current.encoding === 'base64' ? `base64: ${current.data}` : current.data}
            </pre>
          )}
        </section>
      )}
    </section>
  );
}
