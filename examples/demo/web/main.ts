/// <reference types="vite/client" />
// The demo's browser debuggee: a page that connects to Porthole and makes some requests.
import { connect } from '../../../agent/index.js';
import { example } from '../../../plugins/example/agent/index.js';
import { network } from '../../../plugins/network/agent/index.js';

const events = example();
const query = new URLSearchParams(location.search);
const status = document.getElementById('status')!;

connect({
  url: query.get('inspector') ?? import.meta.env.VITE_PORTHOLE_URL ?? undefined,
  app: { id: 'dev.porthole.demo.web', name: 'Demo shop (browser)', version: '1.0.0' },
  plugins: [events, network()],
  onStatus: (s) => {
    status.textContent = s.state === 'connected' ? 'connected to Porthole' : `${s.state}…`;
  },
});

const list = document.getElementById('products')!;
document.getElementById('load')!.addEventListener('click', async () => {
  const response = await fetch('./api/products.json');
  const products = (await response.json()) as { name: string; price: number }[];
  list.replaceChildren(
    ...products.map((p) => Object.assign(document.createElement('li'), { textContent: `${p.name} — $${p.price}` })),
  );
  events.log('info', `loaded ${products.length} products`);
});
document.getElementById('broken')!.addEventListener('click', async () => {
  const response = await fetch('./api/does-not-exist.json');
  events.log('warn', `broken endpoint answered ${response.status}`);
});
document.getElementById('offline')!.addEventListener('click', async () => {
  try {
    await fetch('http://127.0.0.1:9/unreachable');
  } catch (e) {
    events.log('error', 'the server is down', { message: (e as Error).message });
  }
});
document
  .getElementById('log')!
  .addEventListener('click', () => events.log('info', 'button clicked', { at: new Date().toISOString() }));
