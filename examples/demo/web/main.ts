/// <reference types="vite/client" />
// The demo's browser debuggee: a small shop page connected to Porthole with every built-in plugin.
// The Porthole lines come first: the react and state plugins must be in place before React and the
// store are created (their modules are imported below, after connect()).
import { connect } from '../../../agent/index.js';
import { actions } from '../../../plugins/actions/agent/index.js';
import { console as consolePlugin } from '../../../plugins/console/agent/index.js';
import { example } from '../../../plugins/example/agent/index.js';
import { network } from '../../../plugins/network/agent/index.js';
import { react } from '../../../plugins/react/agent/index.js';
import { state } from '../../../plugins/state/agent/index.js';
import { storage } from '../../../plugins/storage/agent/index.js';
import { ui } from '../../../plugins/ui/agent/index.js';

const events = example();
const query = new URLSearchParams(location.search);
const status = document.getElementById('status')!;
const cart = { add: (_name: string) => {}, clear: () => {} };

connect({
  url: query.get('inspector') ?? import.meta.env.VITE_PORTHOLE_URL ?? undefined,
  app: { id: 'dev.porthole.demo.web', name: 'Demo shop (browser)', version: '1.0.0' },
  plugins: [
    events,
    network(),
    consolePlugin(),
    react(),
    state(),
    storage(),
    ui(),
    actions({
      addToCart: {
        description: 'Puts a product in the cart.',
        params: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        run: ({ name }) => cart.add(String(name)),
      },
      emptyCart: { description: 'Removes everything from the cart.', destructive: true, run: () => cart.clear() },
    }),
  ],
  onStatus: (s) => {
    status.textContent = s.state === 'connected' ? 'connected to Porthole' : `${s.state}…`;
    status.dataset.state = s.state;
  },
});

const { startShop } = await import('./shop.js');
Object.assign(cart, startShop(events));
