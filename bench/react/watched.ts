// The bench page with the react plugin counting renders (its hook installed before React loads).
import '../../agent/react/register.js';
import { react } from '../../plugins/react/agent/index.js';
import { commits } from './app.js';

const plugin = react();
const handle = (name: string) => plugin.runtime.handlers.get(name) as (p: unknown, s: AbortSignal) => Promise<unknown>;

/** The agent's answer to a tree request and the ms it took on the page's thread. */
async function tree(params: object): Promise<{ ms: number; bytes: number }> {
  const start = performance.now();
  const answer = await handle('tree')(params, new AbortController().signal);
  return { ms: performance.now() - start, bytes: JSON.stringify(answer).length };
}

Object.assign(window, { bench: { commits, tree } });
