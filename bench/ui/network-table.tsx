// The network panel's table in a bare page, driven from bench/scenarios/ui-network-table.ts:
// everything is timed in the page with performance.now(), up to the frame that shows the result.
import { useState, useSyncExternalStore } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { useColumnLayout } from '../../plugins/network/panel/column-layout.js';
import { FilterBar } from '../../plugins/network/panel/FilterBar.js';
import { TransactionModel } from '../../plugins/network/panel/model.js';
import { parseQuery } from '../../plugins/network/panel/query.js';
import { vocabularyOf } from '../../plugins/network/panel/suggest.js';
import { TransactionTable } from '../../plugins/network/panel/TransactionTable.js';
import '../../plugins/network/panel/network.css';
import type { TransactionSummary } from '../../plugins/network/protocol.js';
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

/** Two animation frames: the DOM has been laid out and a frame with it painted. */
const painted = () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));

let setFilterFromOutside: (text: string) => void = () => {};

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

let root: Root | undefined;
const container = document.getElementById('root')!;
const floor = document.getElementById('floor')!;
const rowCount = () => container.querySelectorAll('[data-testid="network-row"]').length;
const countText = () => container.querySelector('[data-testid="network-count"]')?.textContent ?? '';

const bench = {
  /** Mounts the table and feeds it `n` transactions as one batch of events; ms until painted. */
  async render(n: number): Promise<number> {
    root?.unmount();
    const data = summaries(n);
    await painted();
    const start = performance.now();
    const model = new TransactionModel();
    root = createRoot(container);
    root.render(<Bench model={model} />);
    model.upsert(data);
    await waitUntil(() => rowCount() > 0 && countText().startsWith(n.toLocaleString()));
    await painted();
    return performance.now() - start;
  },
  /** Applies a URL filter to the mounted table; ms until the filtered rows are painted. */
  async filter(text: string): Promise<number> {
    const before = countText();
    const start = performance.now();
    setFilterFromOutside(text);
    await waitUntil(() => countText() !== before);
    await painted();
    return performance.now() - start;
  },
  /** Floor: a screenful of plain DOM rows written with innerHTML. */
  async floorScreen(n: number): Promise<number> {
    const data = summaries(n);
    await painted();
    const start = performance.now();
    floor.innerHTML = data
      .slice(0, 40)
      .map((t) => `<div class="net-row"><span>${t.status}</span><span>${t.method}</span><span>${t.url}</span></div>`)
      .join('');
    await painted();
    const ms = performance.now() - start;
    floor.innerHTML = '';
    return ms;
  },
  /** Floor: Array.filter with String.includes over the URLs, and a screenful of plain DOM. */
  async floorFilter(n: number, text: string): Promise<number> {
    const data = summaries(n);
    await painted();
    const start = performance.now();
    const hits = data.filter((t) => t.url.includes(text));
    floor.innerHTML = hits
      .slice(0, 40)
      .map((t) => `<div class="net-row"><span>${t.status}</span><span>${t.url}</span></div>`)
      .join('');
    await painted();
    const ms = performance.now() - start;
    floor.innerHTML = '';
    return ms;
  },
};

async function waitUntil(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error('the table did not update within 30 s');
    await new Promise((r) => setTimeout(r, 0));
  }
}

Object.assign(window, { bench });
