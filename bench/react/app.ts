import { createElement as h, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';

// The bench page's app: 1,000 components (each with a state and a memo) under one list, re-rendered
// by a new prop; each commit (flushSync of root.render) timed in the page.

function Item({ i, tick }: { i: number; tick: number }) {
  const [open] = useState(false);
  const label = useMemo(() => `item ${i}`, [i]);
  return h('li', { className: open ? 'open' : undefined }, label, ' ', tick);
}

function App({ tick, n }: { tick: number; n: number }) {
  return h(
    'ul',
    null,
    Array.from({ length: n }, (_, i) => h(Item, { key: i, i, tick })),
  );
}

const root = createRoot(document.getElementById('root')!);
let tick = 0;

/** Renders the app `rounds` times; the ms each commit took. */
export function commits(rounds: number, n = 1000): number[] {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    tick++;
    flushSync(() => root.render(h(App, { tick, n })));
    times.push(performance.now() - start);
  }
  return times;
}
