// The window's big lists in a bare page, driven from bench/scenarios/ui-network-table.ts:
// everything is timed in the page with performance.now(), up to the frame that shows the result.
import { type ReactNode, useState, useSyncExternalStore } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { useColumnLayout } from '../../plugins/network/panel/column-layout.js';
import { FilterBar } from '../../plugins/network/panel/FilterBar.js';
import { TransactionModel } from '../../plugins/network/panel/model.js';
import { parseQuery } from '../../plugins/network/panel/query.js';
import { vocabularyOf } from '../../plugins/network/panel/suggest.js';
import { TransactionTable } from '../../plugins/network/panel/TransactionTable.js';
import '../../plugins/network/panel/network.css';
import type { TransactionSummary } from '../../plugins/network/protocol.js';
import type { BridgeClient } from '../../renderer/src/bridge/bridge-client.js';
import { BridgeProvider } from '../../renderer/src/bridge/context.js';
import { PluginEventHub } from '../../renderer/src/bridge/plugin-events.js';
import { useHistory } from '../../renderer/src/stores/history.js';
import { HistoryView } from '../../renderer/src/views/HistoryView.js';
import type { CallSummary } from '../../shared/bridge.js';
import '../../renderer/src/styles.css';

function summaries(n: number): TransactionSummary[] {
  const methods = ['GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE'];
  return Array.from({ length: n }, (_, i) => ({
    id: `tx-${i}`,
    seq: i + 1,
    state: i % 97 === 0 ? 'failed' : 'complete',
    initiator: 'fetch',
    method: methods[i % methods.length]!,
    url: `https://api.example.test/v1/${i % 3 === 0 ? 'orders' : 'items'}/${i}?page=${i % 50}`,
    status: i % 97 === 0 ? undefined : i % 13 === 0 ? 404 : 200,
    startedAt: 1_700_000_000_000 + i,
    durationMs: 5 + (i % 200),
    responseSize: 200 + (i % 5000),
    responseType: 'application/json',
    mockRuleId: i % 50 === 0 ? 'rule-1' : undefined,
  }));
}

function calls(n: number): CallSummary[] {
  const now = Date.now();
  return Array.from({ length: n }, (_, i) => ({
    id: `call-${i}`,
    tool: i % 3 === 0 ? 'network_list_transactions' : 'example_send_ping',
    plugin: i % 3 === 0 ? 'network' : 'example',
    sessionId: 's1',
    surface: 'mcp-http',
    client: { name: 'Claude Code', version: '1.0' },
    startedAt: now - i * 1000,
    durationMs: 3 + (i % 40),
    status: i % 17 === 0 ? 'failed' : 'succeeded',
  }));
}

/** Two animation frames: the DOM has been laid out and a frame with it painted. */
const painted = () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
const frame = () => new Promise<number>((r) => requestAnimationFrame(r));

let setFilterFromOutside: (text: string) => void = () => {};
let current: TransactionModel | undefined;

function Bench({ model }: { model: TransactionModel }) {
  useSyncExternalStore(model.subscribe, model.getVersion);
  const [text, setText] = useState('');
  setFilterFromOutside = setText;
  const query = parseQuery(text);
  const { layout, columns } = useColumnLayout();
  const rows = model.filtered({ query });
  return (
    <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
      <FilterBar
        text={text}
        query={query}
        onChange={setText}
        vocabulary={() => vocabularyOf(model.all())}
        shown={rows.length}
        total={model.size}
      />
      <TransactionTable rows={rows} columns={columns} layout={layout} onSelect={() => {}} />
    </div>
  );
}

// The history view reads the stores; the bench never searches or opens a call, so no core answers.
const idleClient = {
  request: () => Promise.reject(new Error('the bench page has no core')),
} as unknown as BridgeClient;

let root: Root | undefined;
const container = document.getElementById('root')!;
const floor = document.getElementById('floor')!;
const rowCount = (testId = 'network-row') => container.querySelectorAll(`[data-testid="${testId}"]`).length;
const countText = () => container.querySelector('[data-testid="network-count"]')?.textContent ?? '';

function remount(node: ReactNode): void {
  root?.unmount();
  root = createRoot(container);
  root.render(node);
}

/** Frame intervals while `el` scrolls down `frames` times by `step` px, one step per frame. */
async function scrollFrames(el: HTMLElement, frames: number, step: number): Promise<number[]> {
  el.scrollTop = 0;
  await painted();
  const times: number[] = [];
  let last = await frame();
  for (let i = 0; i < frames; i++) {
    el.scrollTop += step;
    const now = await frame();
    times.push(now - last);
    last = now;
  }
  return times;
}

const bench = {
  /** Mounts the table and feeds it `n` transactions as one batch of events; ms until painted. */
  async render(n: number): Promise<number> {
    root?.unmount();
    const data = summaries(n);
    await painted();
    const start = performance.now();
    const model = new TransactionModel();
    current = model;
    remount(<Bench model={model} />);
    model.upsert(data);
    await waitUntil(() => rowCount() > 0 && countText().startsWith(n.toLocaleString()));
    await painted();
    return performance.now() - start;
  },
  /** Types a query into the mounted table's filter box; ms until the filtered rows are painted. */
  async filter(text: string): Promise<number> {
    const before = countText();
    const start = performance.now();
    setFilterFromOutside(text);
    await waitUntil(() => countText() !== before);
    await painted();
    return performance.now() - start;
  },
  /** Scrolls the mounted table; the frame intervals, ms. */
  scroll: (frames: number) =>
    scrollFrames(container.querySelector<HTMLElement>('[data-testid="network-table"]')!, frames, 24 * 12),
  /** The host dropped the `n` oldest; what the first visible row is before and after (scroll anchoring). */
  async dropOldest(n: number, scrollTo: number): Promise<{ before: string; after: string }> {
    const grid = container.querySelector<HTMLElement>('[data-testid="network-table"]')!;
    grid.scrollTop = scrollTo;
    grid.dispatchEvent(new Event('scroll'));
    await painted();
    const top = () => {
      const box = grid.getBoundingClientRect();
      const el = document.elementFromPoint(box.left + 40, box.top + 26 + 12)?.closest('[data-testid="network-row"]');
      return el?.textContent ?? '';
    };
    const before = top();
    current?.dropOldest(n);
    await painted();
    return { before, after: top() };
  },
  /** Mounts the call history with `n` calls in the store; ms until its rows are painted. */
  async history(n: number): Promise<number> {
    root?.unmount();
    const list = calls(n);
    await painted();
    const start = performance.now();
    useHistory.setState({ calls: list, loaded: true, capacity: n });
    remount(
      <BridgeProvider value={{ client: idleClient, hub: new PluginEventHub() }}>
        <div style={{ height: '100vh' }}>
          <HistoryView />
        </div>
      </BridgeProvider>,
    );
    await waitUntil(() => rowCount('call-row') > 0);
    await painted();
    return performance.now() - start;
  },
  /** Floor: a screenful of plain DOM rows written with innerHTML. */
  async floorScreen(n: number): Promise<number> {
    const data = summaries(n);
    await painted();
    const start = performance.now();
    floor.innerHTML = screenful(data);
    await painted();
    const ms = performance.now() - start;
    floor.innerHTML = '';
    return ms;
  },
  /** Floor: one loop with the three tests written by hand, and a screenful of plain DOM. */
  async floorFilter(n: number): Promise<number> {
    const data = summaries(n);
    await painted();
    const start = performance.now();
    const hits = data.filter((t) => t.url.includes('orders') && t.method === 'GET' && t.status !== 404);
    floor.innerHTML = screenful(hits);
    await painted();
    const ms = performance.now() - start;
    floor.innerHTML = '';
    return ms;
  },
  /** Floor: the same scrolling over a plain list of 2,000 static rows. */
  async floorScroll(frames: number): Promise<number[]> {
    floor.style.cssText = 'position: fixed; inset: 0; overflow: auto; background: #fff';
    floor.innerHTML = screenful(summaries(2000), 2000);
    const times = await scrollFrames(floor, frames, 24 * 12);
    floor.innerHTML = '';
    floor.style.cssText = 'position: fixed; inset: 0 0 auto 0; background: #fff';
    return times;
  },
};

function screenful(data: TransactionSummary[], rows = 40): string {
  return data
    .slice(0, rows)
    .map(
      (t) =>
        `<div class="vgrid-row" style="height:24px"><span>${t.status}</span><span>${t.method}</span><span>${t.url}</span></div>`,
    )
    .join('');
}

async function waitUntil(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error('the page did not update within 30 s');
    await new Promise((r) => setTimeout(r, 0));
  }
}

Object.assign(window, { bench });
