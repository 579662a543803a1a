import { defineAgentPlugin, type ProtocolRef } from '../../../agent/plugin.js';
import type { StateProtocol } from '../protocol.js';
import { enhancer, install } from './devtools.js';
import { type DevtoolsOptions, hub } from './hub.js';
import { Queries, type QueryClientLike } from './queries.js';

export type { DevtoolsOptions } from './hub.js';
export type { QueryClientLike } from './queries.js';

const protocol: ProtocolRef<StateProtocol> = { id: 'state', version: '1.1.0' };

export interface StateOptions {
  /** A TanStack Query client (v4, v5) to show its queries: `state({ queryClient })`. */
  queryClient?: QueryClientLike;
  /** States each store keeps in the app for jumps, unless its devtools options say (maxAge). Default 50, as the extension's. */
  maxAge?: number;
  /** Actions waiting to be sent; past it the oldest are dropped and counted. Default 5000. */
  maxPending?: number;
  /** How often waiting actions are sent, in ms. Default 50. */
  flushMs?: number;
}

// Importing this module puts the Redux DevTools extension API in place: import it before the module
// that creates your stores (and before @reduxjs/toolkit, which reads the API when it loads).
install(hub());

/**
 * Every store the app wires to Redux DevTools (Redux Toolkit's configureStore, Zustand's devtools
 * middleware, any connect() of the extension API), and a TanStack QueryClient if given, for the
 * inspector's State panel and its state_* tools: `connect({ plugins: [state({ queryClient })] })`.
 */
export function state(options: StateOptions = {}) {
  return defineAgentPlugin(protocol, (ctx) => {
    const h = hub();
    install(h);
    h.maxAge = options.maxAge ?? h.maxAge;
    h.maxPending = options.maxPending ?? h.maxPending;
    h.flushMs = options.flushMs ?? h.flushMs;
    h.queries?.dispose();
    h.queries = options.queryClient ? new Queries(options.queryClient, () => h.schedule()) : undefined;
    h.attach(ctx);
    // The batch-making, reading and changing code loads now, beside the app's startup, not in it.
    const load = () =>
      h.work
        ? Promise.resolve(h.work)
        : import('./work.js').then((work) => {
            h.work = work;
            if (ctx.connected) h.announce();
            return work;
          });
    void load();
    ctx.handle('read', async (params) => (await load()).read(h, params));
    ctx.handle('change', async (params) => (await load()).change(h, params));
    ctx.onConnectionChange((up) => up && h.announce());
    return {
      /** Stops sending (the devtools API stays in place for the stores that use it). */
      dispose() {
        h.detach(ctx);
        h.queries?.dispose();
        h.queries = undefined;
      },
    };
  });
}

/**
 * The Redux store enhancer, for runtimes where a library does not find the devtools API on `window`
 * (Node): `configureStore({ reducer, enhancers: (d) => d().concat(stateEnhancer({ name: 'app' })) })`.
 */
export function stateEnhancer(options: DevtoolsOptions = {}): <CreateStore>(next: CreateStore) => CreateStore {
  return enhancer(hub(), options) as never;
}
