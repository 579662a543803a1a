// The shop itself: a React list of products, a Zustand cart (with the devtools middleware, as the
// state plugin reads it) kept in localStorage, and buttons that make good, broken and failing calls.
import { createElement as h, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { devtools } from 'zustand/middleware';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { example } from '../../../plugins/example/agent/index.js';

interface Product {
  name: string;
  price: number;
}
interface Cart {
  items: string[];
  products: Product[];
}
type CartStore = StoreApi<Cart>;

function Shop({ store, add }: { store: CartStore; add(name: string): void }) {
  const { items, products } = useSyncExternalStore(store.subscribe, store.getState);
  return h(
    'div',
    null,
    h(
      'ul',
      { id: 'products' },
      products.map((p) =>
        h(
          'li',
          { key: p.name },
          `${p.name} — $${p.price} `,
          h('button', { type: 'button', onClick: () => add(p.name) }, 'Add to cart'),
        ),
      ),
    ),
    h('p', { id: 'cart' }, items.length ? `Cart: ${items.join(', ')}` : 'The cart is empty.'),
  );
}

export function startShop(events: ReturnType<typeof example>) {
  const saved = JSON.parse(localStorage.getItem('demo.cart') ?? '[]') as string[];
  const store = createStore<Cart>()(devtools(() => ({ items: saved, products: [] }), { name: 'cart' }));
  store.subscribe((s) => localStorage.setItem('demo.cart', JSON.stringify(s.items)));
  const add = (name: string) =>
    store.setState((s) => ({ items: [...s.items, name] }), false, { type: 'cart/add', name } as never);
  const clear = () => store.setState({ items: [] }, false, 'cart/clear' as never);

  createRoot(document.getElementById('shop')!).render(h(Shop, { store, add }));

  document.getElementById('load')!.addEventListener('click', async () => {
    const response = await fetch('./api/products.json');
    const products = (await response.json()) as Product[];
    store.setState({ products }, false, 'products/loaded' as never);
    events.log('info', `loaded ${products.length} products`);
    console.log('loaded products', products);
  });
  document.getElementById('broken')!.addEventListener('click', async () => {
    const response = await fetch('./api/does-not-exist.json');
    events.log('warn', `broken endpoint answered ${response.status}`);
    console.warn(`GET ./api/does-not-exist.json answered ${response.status}`);
  });
  document.getElementById('offline')!.addEventListener('click', async () => {
    try {
      await fetch('http://127.0.0.1:9/unreachable');
    } catch (e) {
      events.log('error', 'the server is down', { message: (e as Error).message });
      console.error('the server is down', e);
    }
  });
  document.getElementById('log')!.addEventListener('click', () => {
    events.log('info', 'button clicked', { at: new Date().toISOString() });
    console.info('button clicked');
  });
  return { add, clear };
}
