import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type BrowserContext,
  test as base,
  expect as baseExpect,
  type Expect,
  type Page,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
  type PlaywrightWorkerArgs,
  type PlaywrightWorkerOptions,
  type TestInfo,
  type TestType,
} from '@playwright/test';
import { packageRoot } from '../host/package-root.js';
import { connectInspector, type Inspector, listAllSessions, type PortholeSession, scopedSession } from './inspector.js';
import { portholeMatchers } from './matchers.js';
import { openPlaceholder, type Placeholder } from './placeholder.js';
import { runInspector } from './run-inspector.js';

// `porthole/playwright`: a Playwright Test fixture. One inspector for the run (started by the first
// worker, or the one running in `portholeDataDir`); every page of a test gets the agent (console +
// network) by addInitScript, with no change to the app; `porthole` is the typed client aimed at the
// test's page; on failure the test's HAR, console log and a screenshot are attached to the report.

/** Options of the run (set them in the config's `use`). */
export interface PortholeWorkerOptions {
  /**
   * The data dir of an inspector to use (the desktop app's, to watch the tests live); one is started
   * there if none runs. Default: $PORTHOLE_DATA_DIR, else an inspector of its own for the run.
   */
  portholeDataDir: string | undefined;
  /** More `porthole serve` flags for the inspector the run starts, e.g. ['--allow-origin', 'http://shop.test:*']. */
  portholeServeArgs: string[];
}

/** Options of each test. */
export interface PortholeOptions {
  /** When to attach the HAR, the console log and a screenshot: on failure (default), always, or never. */
  portholeAttach: 'on-failure' | 'always' | 'never';
}

/** The test's client: `porthole.network.mock(...)`, `porthole.console.listErrors()`, the checks; aimed at the test's page. */
export type Porthole = PortholeSession & {
  /** The app id every page of this test connects with (one per test, so workers never mix). */
  readonly appId: string;
};

interface WorkerFixtures extends PortholeWorkerOptions {
  /** The run's inspector, connected: every session and `inspector_*` tool. */
  portholeInspector: Inspector;
  _portholeRun: { dataDir: string; debuggeeUrl: string };
}

interface TestFixtures {
  porthole: Porthole;
  _portholeTest: TestSession;
}

export const test: TestType<
  PlaywrightTestArgs & PlaywrightTestOptions & PortholeOptions & TestFixtures,
  PlaywrightWorkerArgs & PlaywrightWorkerOptions & WorkerFixtures
> = base.extend<PortholeOptions & TestFixtures, WorkerFixtures>({
  portholeDataDir: [process.env.PORTHOLE_DATA_DIR || undefined, { option: true, scope: 'worker' }],
  portholeServeArgs: [[], { option: true, scope: 'worker' }],
  portholeAttach: ['on-failure', { option: true }],

  _portholeRun: [
    async ({ portholeDataDir, portholeServeArgs }, use) => {
      const run = await runInspector({ dataDir: portholeDataDir, serveArgs: portholeServeArgs });
      await use(run);
    },
    { scope: 'worker' },
  ],

  portholeInspector: [
    async ({ _portholeRun }, use) => {
      const inspector = await connectInspector({ dataDir: _portholeRun.dataDir, clientName: 'porthole-playwright' });
      await use(inspector);
      await inspector.close();
    },
    { scope: 'worker' },
  ],

  _portholeTest: async ({ portholeInspector, _portholeRun }, use, testInfo) => {
    const session = await TestSession.open(portholeInspector, _portholeRun.debuggeeUrl, testInfo);
    await use(session);
    session.close();
  },

  context: async ({ context, _portholeTest, portholeAttach }, use, testInfo) => {
    await _portholeTest.inject(context);
    await use(context);
    const failed = testInfo.status !== testInfo.expectedStatus;
    if (portholeAttach === 'always' || (portholeAttach === 'on-failure' && failed))
      await _portholeTest.attach(context, testInfo);
  },

  page: async ({ page, _portholeTest }, use) => {
    await _portholeTest.ready(page);
    await use(page);
  },

  porthole: async ({ page, _portholeTest }, use) => {
    await _portholeTest.ready(page);
    await use(_portholeTest.porthole);
  },
});

/** Playwright's expect with `toHaveNoFailedRequests()` and `toHaveNoConsoleErrors()`. */
export const expect: Expect<typeof portholeMatchers> = baseExpect.extend(portholeMatchers);

/** A test's identity in the inspector, its placeholder session, its pages' scripts, its client. */
class TestSession {
  readonly porthole: Porthole;
  /** Each page's init script, once added. */
  private readonly scripts = new Map<Page, Promise<unknown>>();
  private pageCount = 0;
  private mainPage: Page | undefined;
  private context: BrowserContext | undefined;
  /** The newest mock config a change answered: pages apply it before their first request. */
  private mockConfig: { revision: number } | undefined;

  private constructor(
    private readonly inspector: Inspector,
    private readonly debuggeeUrl: string,
    readonly appId: string,
    private readonly appName: string,
    private readonly placeholder: Placeholder,
  ) {
    const mainSession = placeholder.ticket.sessionId;
    const session = scopedSession(inspector, {
      target: async () => mainSession,
      sessions: () => this.sessionIds(),
      settle: () => this.flushPages(),
      observe: (tool, value) => this.observe(tool, value),
    });
    this.porthole = Object.assign(session, { appId });
  }

  static async open(inspector: Inspector, debuggeeUrl: string, testInfo: TestInfo): Promise<TestSession> {
    // One app id per test attempt: mock rules (kept per app) and sessions of two workers never meet.
    const appId = `playwright.${testInfo.testId}.r${testInfo.retry}.e${testInfo.repeatEachIndex}`;
    const appName = testInfo.titlePath.slice(1).join(' › ').slice(0, 200) || 'Playwright test';
    const placeholder = await openPlaceholder(
      debuggeeUrl,
      { id: appId, name: appName },
      { id: `${appId}.page1`, name: 'the test’s page (not loaded yet)', platform: 'browser' },
    );
    return new TestSession(inspector, debuggeeUrl, appId, appName, placeholder);
  }

  /**
   * Every page of the context gets the agent before its first script, with its identity written
   * into the script: the first page continues the test's session, each other page has its own.
   */
  async inject(context: BrowserContext): Promise<void> {
    this.context = context;
    context.on('page', (page) => this.track(page));
    for (const page of context.pages()) this.track(page);
  }

  /** Resolves once `page` has the agent (the page fixture waits for it before the test starts). */
  async ready(page: Page): Promise<void> {
    await this.scripts.get(page);
  }

  private track(page: Page): void {
    if (this.scripts.has(page)) return;
    const main = !this.mainPage;
    if (main) this.mainPage = page;
    const deviceId = `${this.appId}.page${++this.pageCount}`;
    const options = {
      url: this.debuggeeUrl,
      app: { id: this.appId, name: this.appName },
      identity: {
        deviceId,
        deviceName: main ? 'the test’s page' : `page ${this.pageCount} of the test`,
        ...(main ? { ticket: this.placeholder.ticket } : {}),
      },
      ...(this.mockConfig ? { mockConfig: this.mockConfig } : {}),
    };
    this.scripts.set(
      page,
      pageAgentScript().then((bundle) =>
        page.addInitScript({ content: `${bundle}\n;globalThis.__porthole.start(${JSON.stringify(options)});` }),
      ),
    );
  }

  /** Every session of this test: its page's and those of pages it opened, connected or not. */
  private async sessionIds(): Promise<string[]> {
    const call = (name: string, args?: Record<string, unknown>) =>
      this.inspector.callRaw(name, args).then((d) => d.value);
    const mine = (await listAllSessions(call)).filter((s) => s.app.id === this.appId);
    const ids = mine.map((s) => s.id);
    return ids.includes(this.placeholder.ticket.sessionId) ? ids : [this.placeholder.ticket.sessionId, ...ids];
  }

  /** Makes every open page's agent send what it holds, so a check sees the page's last requests and logs. */
  private async flushPages(): Promise<void> {
    for (const page of this.context?.pages() ?? []) {
      await page
        .evaluate(() => (globalThis as { __porthole?: { flush?(): void } }).__porthole?.flush?.())
        .catch(() => {});
    }
  }

  /**
   * A mock change answers the whole config: pages loaded from now on apply it before their first
   * request. The call returns once every page has the script, so a `page.goto` after it gets it.
   */
  private async observe(tool: string, value: unknown): Promise<void> {
    if (!tool.startsWith('network_') || !tool.includes('mock')) return;
    const config = (value as { config?: { revision?: number } } | undefined)?.config;
    if (!config || typeof config.revision !== 'number') return;
    if (this.mockConfig && config.revision <= this.mockConfig.revision) return;
    this.mockConfig = config as { revision: number };
    const seed = `globalThis.__porthole?.seed?.(${JSON.stringify(config)});`;
    const added: Promise<unknown>[] = [];
    for (const [page, before] of this.scripts) {
      const next = before.then(() => page.addInitScript({ content: seed }).catch(() => {}));
      this.scripts.set(page, next);
      added.push(next);
    }
    await Promise.all(added);
  }

  /** The test's HAR, console log and a screenshot of each open page, as report attachments. */
  async attach(context: BrowserContext, testInfo: TestInfo): Promise<void> {
    await this.flushPages();
    const sessions = await this.sessionIds().catch(() => [this.placeholder.ticket.sessionId]);
    const entries: { startedDateTime: string }[] = [];
    let log: Record<string, unknown> | undefined;
    const lines: string[] = [];
    for (const sessionId of sessions) {
      const har = await this.inspector.network
        .exportHar({ sessionId, maxEntries: 5000, maxBodyChars: 1_000_000 })
        .catch(() => undefined);
      if (har?.log) {
        log ??= { ...har.log };
        entries.push(...((har.log.entries ?? []) as { startedDateTime: string }[]));
      }
      lines.push(...(await consoleLines(this.inspector, sessionId)));
    }
    if (log) {
      entries.sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
      await testInfo.attach('porthole-network.har', {
        body: JSON.stringify({ log: { ...log, entries } }, null, 2),
        contentType: 'application/json',
      });
    }
    await testInfo.attach('porthole-console.txt', {
      body: lines.length ? `${lines.join('\n')}\n` : '(the app logged nothing)\n',
      contentType: 'text/plain',
    });
    let n = 0;
    for (const page of context.pages()) {
      const shot = await page.screenshot({ fullPage: true, timeout: 5000 }).catch(() => undefined);
      if (shot)
        await testInfo.attach(`porthole-screenshot${n++ ? `-${n}` : ''}.png`, { body: shot, contentType: 'image/png' });
    }
  }

  close(): void {
    this.placeholder.close();
  }
}

/** The session's console messages, oldest first, one line each. */
async function consoleLines(inspector: Inspector, sessionId: string): Promise<string[]> {
  const lines: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const answer = await inspector.console
      .listMessages({ sessionId, limit: 200, ...(cursor ? { cursor } : {}) })
      .catch(() => undefined);
    if (!answer) break;
    const shown = answer.messages.map((m) => {
      const time = new Date(m.time).toISOString().slice(11, 23);
      const times = m.count > 1 ? ` (×${m.count})` : '';
      return `${time} ${m.level.padEnd(5)} ${m.text}${times}${m.site ? `  (${m.site})` : ''}`;
    });
    lines.unshift(...shown);
    cursor = answer.olderCursor;
    if (!cursor) break;
  }
  return lines;
}

let pageAgent: Promise<string> | undefined;

/** The page bundle: built with the package, or, in a checkout, from the sources. */
function pageAgentScript(): Promise<string> {
  pageAgent ??= (async () => {
    const root = packageRoot();
    const script = join(root, 'scripts/build-page-agent.js');
    if (existsSync(join(root, 'agent/page-bundle.ts')) && existsSync(script)) {
      const { buildPageAgent } = (await import(pathToFileURL(script).href)) as {
        buildPageAgent(root: string): Promise<string>;
      };
      return buildPageAgent(root);
    }
    const built = join(root, 'out/main/page-agent.js');
    if (!existsSync(built)) throw new Error(`the porthole package has no ${built}: reinstall it`);
    return readFileSync(built, 'utf8');
  })();
  return pageAgent;
}
