import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Window } from 'happy-dom';
import type * as ReactNS from 'react';
import { installReactHook, type ReactHookState } from './hook.js';

// Test helpers: fresh copies of real React (18 or 19), loaded after a hook is (or is not) installed,
// so each test sees React inject into the hook of its choice, as a page that loads React after the agent.

const ROOT = join(import.meta.dirname, '../..');
/** React 18 lives in its own folder (e2e/fixtures/react18) so that react-dom 18 finds react 18. */
const REACT18 = join(ROOT, 'e2e/fixtures/react18/package.json');

export interface LoadedReact {
  React: typeof ReactNS;
  createRoot: typeof import('react-dom/client').createRoot;
  flushSync: typeof import('react-dom').flushSync;
  version: string;
}

/**
 * A new copy of react and react-dom (new module instances, so a new renderer that injects into the
 * hook installed now). `production: true` loads their production builds.
 */
export function loadReact(major: 18 | 19 = 19, { production = false } = {}): LoadedReact {
  const require = createRequire(major === 18 ? REACT18 : import.meta.url);
  for (const key of Object.keys(require.cache)) {
    if (/[/\\]node_modules[/\\](react|react-dom|scheduler)[/\\]/.test(key)) delete require.cache[key];
  }
  const env = process.env.NODE_ENV;
  if (production) process.env.NODE_ENV = 'production';
  try {
    const React = require('react') as typeof ReactNS;
    const client = require('react-dom/client') as typeof import('react-dom/client');
    const dom = require('react-dom') as typeof import('react-dom');
    return { React, createRoot: client.createRoot, flushSync: dom.flushSync, version: React.version };
  } finally {
    process.env.NODE_ENV = env;
  }
}

/** Removes the global hook and Porthole's state (a page before any script ran). */
export function removeReactHook(): void {
  const g = globalThis as Record<string | symbol, unknown>;
  delete g.__REACT_DEVTOOLS_GLOBAL_HOOK__;
  delete g[Symbol.for('porthole.react')];
}

/** A fresh Porthole hook (none before it). */
export function freshReactHook(): ReactHookState {
  removeReactHook();
  return installReactHook();
}

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** React's act, or flushSync in a production build (which has no act). */
export function act(r: LoadedReact, fn: () => void): void {
  if (typeof r.React.act === 'function') r.React.act(fn);
  else r.flushSync(fn);
}

/** Renders `element` into a new container in the document; returns the container and the root. */
export function mount(r: LoadedReact, element: ReactNS.ReactNode) {
  const container = document.createElement('div');
  document.body.append(container);
  const root = r.createRoot(container);
  act(r, () => root.render(element));
  return {
    container,
    root,
    unmount() {
      act(r, () => root.unmount());
      container.remove();
    },
  };
}

/**
 * A happy-dom document for React DOM in a test that also runs the inspector (the \`node\`
 * environment): only window, document and the DOM classes are made global, so Node's own fetch,
 * URL, AbortController and WebSocket stay for the core and the MCP client.
 */
export function installDom(): void {
  if ((globalThis as { document?: unknown }).document) return;
  const win = new Window({ url: 'http://127.0.0.1/' });
  const g = globalThis as Record<string, unknown>;
  g.window = win;
  g.document = win.document;
  for (const name of [
    'navigator',
    'Node',
    'Element',
    'HTMLElement',
    'HTMLIFrameElement',
    'Text',
    'Event',
    'MouseEvent',
  ]) {
    if (!(name in g) || name === 'Event') g[name] = (win as unknown as Record<string, unknown>)[name];
  }
}
