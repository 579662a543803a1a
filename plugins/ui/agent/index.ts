import { defineAgentPlugin, type ProtocolRef } from '../../../agent/plugin.js';
import { RequestError } from '../../../shared/protocol/request-error.js';
import { UI_PROTOCOL_ID, UI_PROTOCOL_VERSION } from '../constants.js';
import type { PageState, Screenshot, UiProtocol } from '../protocol.js';
import type { UiSource } from './source.js';

export type { UiSource } from './source.js';

const protocol: ProtocolRef<UiProtocol> = { id: UI_PROTOCOL_ID, version: UI_PROTOCOL_VERSION };

export interface UiOptions {
  /** Origins besides the page's own that ui_navigate may go to, e.g. `['https://login.example.com']`. */
  allowOrigins?: string[];
  /** Captures the screen: for apps without a DOM, or to replace the DOM rendering. */
  screenshot?: () => Promise<Screenshot> | Screenshot;
  /** `false` refuses ui_evaluate in this app, whatever the inspector allows. */
  evaluate?: boolean;
  /** Where the outline comes from when it is not the page's DOM (React Native, a canvas app). */
  source?: UiSource | (() => UiSource | Promise<UiSource>);
}

interface PageGlobals {
  document?: Document;
  navigator?: { product?: string };
  location?: Location;
  addEventListener?: (type: string, listener: () => void, options?: AddEventListenerOptions) => void;
}

/**
 * The ui plugin's agent part: lets the inspector see the app's UI as an outline, act on it
 * (click, fill, press, select, …), navigate, wait, evaluate code and take screenshots. Nothing runs
 * until the inspector asks: the DOM code, the serializer and the screenshot library load on first use.
 */
export function ui(options: UiOptions = {}) {
  return defineAgentPlugin(protocol, (ctx) => {
    const g = globalThis as PageGlobals;
    const doc = g.document?.documentElement ? g.document : undefined;
    // React Native: the outline comes from React's host components (react-native/index.ts).
    const native = !doc && g.navigator?.product === 'ReactNative';
    let source: Promise<UiSource> | undefined;
    const ui = (): Promise<UiSource> => {
      if (options.source) {
        const given = options.source;
        return (source ??= Promise.resolve(typeof given === 'function' ? given() : given));
      }
      if (native) return (source ??= import('./react-native/index.js').then((m) => m.reactNativeSource()));
      if (!doc) return Promise.reject(noUi());
      return (source ??= import('./dom/index.js').then((m) => m.domSource()));
    };

    const page = (): PageState => {
      if (doc) {
        return {
          url: String(g.location?.href ?? ''),
          title: doc.title.slice(0, 600),
          readyState: doc.readyState,
          runtime: options.source ? 'custom' : 'dom',
        };
      }
      const argv = (globalThis as { process?: { argv?: string[] } }).process?.argv;
      return {
        url: argv?.[1] ? `file://${argv[1]}` : '',
        title: '',
        readyState: 'complete',
        runtime: options.source || native ? 'custom' : 'none',
      };
    };
    const report = () => {
      if (ctx.connected) ctx.notify('page', page);
    };
    ctx.onConnectionChange((connected) => {
      if (connected) report();
    });
    if (doc && g.addEventListener) {
      const passive = { passive: true };
      doc.addEventListener('DOMContentLoaded', report, passive);
      for (const type of ['load', 'popstate', 'hashchange']) g.addEventListener(type, report, passive);
    }

    ctx.handle('snapshot', async (params) => (await ui()).snapshot(params));
    ctx.handle('act', async (params) => {
      const result = await (await ui()).act(params);
      // What the action started (requests, console errors) leaves before this answer.
      ctx.flush();
      return result;
    });
    ctx.handle('settle', async () => {
      const result = await (await ui()).settle();
      ctx.flush();
      return result;
    });
    ctx.handle('waitFor', async (params, signal) => (await ui()).waitFor(params, signal));
    ctx.handle('navigate', async ({ to }) => {
      const target = await ui();
      if (!target.navigate) throw new RequestError('handler-error', 'this app has no page to navigate');
      return target.navigate(to, options.allowOrigins ?? []);
    });
    ctx.handle('screenshot', async (params) => {
      if (options.screenshot && params.id === undefined) return await options.screenshot();
      if (!doc && !options.source && !native) {
        throw new RequestError(
          'handler-error',
          'this app has no DOM to capture (it runs in Node or another runtime without a page); give ui({ screenshot }) a function that returns { base64, mimeType }',
        );
      }
      return (await ui()).screenshot(params);
    });
    ctx.handle('watch', async ({ on }) => {
      (await ui()).watch(on ? () => ctx.notify('changed', {}) : undefined);
      return {};
    });
    ctx.on('hold', () => {
      source?.then(
        (s) => s.hold(),
        () => {},
      );
    });
    ctx.on('highlight', ({ id }) => {
      ui().then(
        (s) => s.highlight(id),
        () => {},
      );
    });
    ctx.handle('evaluate', async ({ expression, timeoutMs }, signal) => {
      if (options.evaluate === false) {
        throw new RequestError(
          'handler-error',
          'this app refuses ui_evaluate (it passes ui({ evaluate: false })); read it with ui_snapshot, or the actions it declares',
        );
      }
      return (await import('./evaluate.js')).evaluate(expression, timeoutMs, signal);
    });
  });
}

function noUi(): RequestError {
  return new RequestError(
    'handler-error',
    'this app has no UI to see or act on: it runs without a DOM (Node, or a worker). Read its state with ui_evaluate, run the debug actions it declares with actions_list / actions_run, and watch it with the network_* and console_* tools. An app with another kind of UI can plug it in with ui({ source })',
  );
}
