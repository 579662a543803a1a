import { defineAgentPlugin, type ProtocolRef } from '../../../agent/plugin.js';
import type { Fiber } from '../../../agent/react/fiber.js';
import { installReactHook, type ReactHookListener, type ReactHookState } from '../../../agent/react/hook.js';
import { pageRoots } from '../../../agent/react/page-roots.js';
import { RequestError } from '../../../shared/protocol/request-error.js';
import type { reactProtocol, Status } from '../protocol.js';
import { FiberIds } from './ids.js';
import { RenderLog } from './renders.js';

const protocol: ProtocolRef<typeof reactProtocol> = { id: 'react', version: '1.0.0' };

export interface ReactOptions {
  /** Renders kept for react_renders, newest last (default 20,000; the oldest go first). */
  maxRenders?: number;
}

// Importing this module installs the hook too, so `import { react } from '@porthole/agent/react'`
// above the app's React imports is enough; '@porthole/agent/react/register' says so more plainly.
installReactHook();

const answers = () => import('./answers.js');

/** A refusal stays as it is; anything else React's objects threw at us is said as such. */
async function reading<T>(answer: () => Promise<T>): Promise<T> {
  try {
    return await answer();
  } catch (e) {
    if (e instanceof RequestError) throw e;
    throw new RequestError('handler-error', `could not read the app's React: ${(e as Error)?.message ?? e}; try again`);
  }
}

const FIX =
  "import '@porthole/agent/react/register' as the first import of the app's entry (before react-dom or react-native loads), then reload";

/**
 * The app's React components for the inspector: the tree, one component's props, state and hooks,
 * and which components rendered and why. Counting renders is the only work done per commit.
 */
export function react(options: ReactOptions = {}) {
  return defineAgentPlugin(protocol, (ctx) => {
    const hook = installReactHook();
    const ids = new FiberIds();
    const log = new RenderLog(ids, options.maxRenders);
    let pending: ReturnType<typeof setTimeout> | undefined;
    const listener: ReactHookListener = {
      commit(_id, root) {
        log.onCommit(root);
        if (pending === undefined && ctx.connected) {
          pending = setTimeout(() => {
            pending = undefined;
            ctx.notify('commits', { commit: log.commit, renders: log.total });
          }, 1000);
        }
      },
      renderer: () => ctx.connected && ctx.notify('status', () => statusOf(hook, log.commit)),
    };
    hook.listeners.add(listener);
    ctx.onConnectionChange((connected) => connected && ctx.notify('status', () => statusOf(hook, log.commit)));

    const starts = (): Fiber[] => {
      const known = [...hook.roots.keys()];
      return (known.length ? known : pageRoots()).map((r) => r.current);
    };
    ctx.handle('tree', (p) =>
      reading(async () => {
        const start = p.id ? [ids.resolve(p.id)] : starts();
        const { buildTree } = await answers();
        return { ...buildTree(start, ids, p), status: statusOf(hook, log.commit) };
      }),
    );
    ctx.handle('inspect', (p) =>
      reading(async () => {
        const { inspect, override } = await answers();
        if (p.set) {
          const id = p.id ?? inspect(starts(), ids, { name: p.name, highlight: false }, []).id;
          const fiber = ids.resolve(id);
          log.wrote(fiber);
          override(hook, fiber, p.set);
          await new Promise((r) => setTimeout(r, 0)); // React re-renders it in a microtask
          p = { ...p, id };
        }
        const status = statusOf(hook, log.commit);
        return inspect(starts(), ids, p, status.problem ? [status.problem] : []);
      }),
    );
    ctx.handle('renders', (p) =>
      reading(async () => {
        const { summarize } = await answers();
        return {
          commit: log.commit,
          commits: log.commit - (p.since ?? 0),
          ...summarize(log.records(), ids, p),
          status: statusOf(hook, log.commit),
        };
      }),
    );
    return {
      /** How React is seen: the hook, renderers, roots, and what is missing. */
      status: () => statusOf(hook, log.commit),
      /** Stops counting renders (the hook stays installed: React holds on to it). */
      dispose() {
        hook.listeners.delete(listener);
        clearTimeout(pending);
      },
    };
  });
}

function statusOf(hook: ReactHookState, commits: number): Status {
  const renderers = [...hook.renderers].map(([id, r]) => ({
    id,
    version: typeof r.version === 'string' ? r.version.slice(0, 100) : undefined,
    package: typeof r.rendererPackageName === 'string' ? r.rendererPackageName.slice(0, 100) : undefined,
    build: r.bundleType === 1 ? 'development' : r.bundleType === 0 ? 'production' : 'unknown',
  })) satisfies Status['renderers'];
  const status: Status = {
    hook: hook.disabled ? 'disabled' : hook.mode,
    renderers: renderers.slice(0, 20),
    roots: hook.roots.size,
    commits,
  };
  if (hook.disabled) {
    status.problem =
      "React DevTools' global hook is disabled (isDisabled), so React reports to nothing: remove what disables it, then reload";
  } else if (hook.mode === 'read-only') {
    status.problem =
      "the page's React DevTools hook cannot be changed (it is frozen), so renders are not counted; components are read from the page";
  } else if (!renderers.length) {
    const late = hook.roots.size === 0 && pageRoots().length > 0;
    status.late = late || undefined;
    status.problem = late
      ? `React loaded before Porthole's hook: components are read from the page, but renders are not counted and some details are missing. Fix: ${FIX}`
      : `no React renderer has registered. If the app uses React: ${FIX}`;
  } else if (renderers.every((r) => r.build === 'production')) {
    status.problem =
      'React is a production build: names may be minified, hook kinds are inferred, and sources, owners and render times are missing; run a development build to see them';
  }
  return status;
}
