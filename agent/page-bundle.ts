import { consolePlugin } from '../plugins/console/agent/index.js';
import { network } from '../plugins/network/agent/index.js';
import type { MockConfig } from '../plugins/network/protocol.js';
import type { AppInfo } from '../shared/protocol/messages.js';
import { connect } from './connection.js';

// The agent as one script for a page that was not built with it: what `porthole/playwright`
// injects into every page of a test with addInitScript (built by scripts/build-page-agent.js into
// out/main/page-agent.js). Console and network start with the document, and connect with the
// page's identity the runner baked into the script (one session per page).

/** Who this page is, from the test runner: its device id and, for the test's own page, the session to continue. */
export interface PageIdentity {
  deviceId: string;
  deviceName: string;
  ticket?: { sessionId: string; secret: string };
}

export interface StartOptions {
  /** The inspector's debuggee link. */
  url: string;
  app: AppInfo;
  /** Who this page is. */
  identity: PageIdentity;
  /** Mock rules the test set before this document: applied before the page's first request. */
  mockConfig?: MockConfig;
}

interface PageAgent {
  /** Sends what the agent holds now. */
  flush(): void;
  /** Applies mock rules the test set since the page was created (a later init script calls it). */
  seed(config: MockConfig): void;
}

type Plugins = { net: ReturnType<typeof network>; logs: ReturnType<typeof consolePlugin> };

const g = globalThis as unknown as { __porthole?: PageAgent | { start(options: StartOptions): void } };

function start(options: StartOptions): void {
  // One agent per top-level document: frames share their page's session through its requests.
  if (typeof window === 'undefined' || window.top !== window) return;
  const plugins: Plugins = { net: network(), logs: consolePlugin() };
  let applied = -1;
  let queue: Promise<unknown> = Promise.resolve();
  const seed = (config: MockConfig) => {
    if (config.revision <= applied) return;
    applied = config.revision;
    // In order, and before the page's scripts: each step resolves in microtasks.
    queue = queue.then(() =>
      plugins.net.runtime.handleRequest('setMockConfig', config, new AbortController().signal).catch((e) => {
        console.warn('[porthole] the mock rules could not be applied before the page loaded:', e);
      }),
    );
  };
  if (options.mockConfig) seed(options.mockConfig);
  g.__porthole = { flush: () => plugins.logs.flush(), seed };
  const { identity } = options;
  if (identity.ticket) keepTicket(options.app.id, identity.ticket);
  connect({
    url: options.url,
    app: options.app,
    device: { id: identity.deviceId, name: identity.deviceName },
    plugins: [plugins.net, plugins.logs],
  });
}

/** Where the agent looks for the session to continue (agent/resume-store.ts), unless this tab already has one. */
function keepTicket(appId: string, ticket: NonNullable<PageIdentity['ticket']>): void {
  try {
    const key = `porthole.session.${appId}`;
    if (!sessionStorage.getItem(key)) sessionStorage.setItem(key, JSON.stringify(ticket));
  } catch {
    // storage blocked (a sandboxed page): the page gets a session of its own
  }
}

g.__porthole = { start };
