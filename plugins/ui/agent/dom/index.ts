import { RequestError } from '../../../../shared/protocol/request-error.js';
import type { ActParams, NavigateResult, Target } from '../../protocol.js';
import type { UiSource } from '../source.js';
import { Actor, lineOf } from './act.js';
import { deepActiveElement } from './aria.js';
import { Highlighter } from './highlight.js';
import { elementOf, idOf, observeAll } from './ids.js';
import { capture } from './screenshot.js';
import { elementById, pageInfo, snapshot } from './snapshot.js';
import { waitFor } from './wait.js';
import { findByRole } from './walk.js';

// The page's DOM as the ui plugin's source: loaded by the agent part on the inspector's first ui
// request, so an app that never gets one never loads this code.

const WATCH_THROTTLE_MS = 300;
/** Delay before a navigation starts, so the answer saying it will leaves first. */
const NAVIGATE_AFTER_MS = 30;

export function domSource(doc: Document = document): UiSource {
  const highlighter = new Highlighter(doc);
  const overlay = () => highlighter.element;
  const actor = new Actor(overlay);
  let watcher: MutationObserver | undefined;

  const resolve = (target: Target | undefined): Element | undefined => {
    if (!target) return undefined;
    if (target.id !== undefined) return elementById(target.id);
    if (target.role) {
      const node = findByRole(doc.body ?? doc.documentElement, target.role, target.name, deepActiveElement(doc));
      const el = node?.id !== undefined ? elementOf(node.id) : undefined;
      if (!el) {
        throw new RequestError(
          'handler-error',
          `no visible ${target.role}${target.name !== undefined ? ` named ${JSON.stringify(target.name)}` : ''} on the page now: take a new snapshot`,
        );
      }
      return el;
    }
    return undefined;
  };

  return {
    page: () => pageInfo(doc),
    snapshot: (params) => snapshot(doc, params, overlay()),
    async act(params: ActParams) {
      const el = resolve(params.target);
      const result = await actor.act(el, params, doc);
      // The element acted on keeps (or gets) its id, so the answer can name it by ref.
      if (el && !result.target?.id && el.isConnected) idOf(el);
      return result;
    },
    settle: () => actor.settle(doc),
    hold: () => actor.hold(),
    waitFor: (params, signal) => {
      if (params.target?.id !== undefined && !params.gone) elementOf(params.target.id);
      return waitFor(doc, params, signal, overlay());
    },
    screenshot: ({ id, fullPage }) =>
      capture(doc, id === undefined ? undefined : elementById(id), fullPage === true, overlay()),
    highlight(id) {
      const el = id === undefined ? undefined : elementOf(id);
      const line = el?.isConnected ? lineOf(el, doc) : undefined;
      highlighter.show(
        el,
        line ? `${line.role}${line.name ? ` "${line.name}"` : ''}` : (el?.tagName.toLowerCase() ?? ''),
      );
    },
    watch(changed) {
      watcher?.disconnect();
      watcher = undefined;
      if (!changed) return;
      let pending: ReturnType<typeof setTimeout> | undefined;
      const host = overlay;
      watcher = new MutationObserver((records) => {
        if (pending || records.every((r) => r.target === host() || host()?.contains(r.target))) return;
        pending = setTimeout(() => {
          pending = undefined;
          changed();
        }, WATCH_THROTTLE_MS);
      });
      observeAll(watcher, doc, { subtree: true, childList: true, characterData: true, attributes: true });
    },
    navigate: (to, allowOrigins) => navigate(doc, to, allowOrigins),
  };
}

function navigate(doc: Document, to: string, allowOrigins: readonly string[]): NavigateResult {
  const win = doc.defaultView ?? window;
  const from = win.location.href;
  const later = (go: () => void) => setTimeout(go, NAVIGATE_AFTER_MS);
  switch (to) {
    case 'reload':
      later(() => win.location.reload());
      return { from };
    case 'back':
      later(() => win.history.back());
      return { from };
    case 'forward':
      later(() => win.history.forward());
      return { from };
  }
  let url: URL;
  try {
    url = new URL(to, from);
  } catch {
    throw new RequestError(
      'handler-error',
      `"${to}" is not a URL; give an absolute URL, a path, or reload, back, forward`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'file:') {
    throw new RequestError(
      'handler-error',
      `refused: ${url.protocol} URLs cannot be navigated to; give an http(s) URL`,
    );
  }
  const here = new URL(from);
  if (url.origin !== here.origin && !allowOrigins.includes(url.origin)) {
    throw new RequestError(
      'handler-error',
      `cross-origin: ${url.origin} is not the page's origin (${here.origin}), and the app does not allow it; navigate within ${here.origin}, or have the app pass ui({ allowOrigins: ['${url.origin}'] })`,
    );
  }
  const sameDocument = url.hash !== '' && url.href.split('#')[0] === from.split('#')[0];
  later(() => win.location.assign(url.href));
  return { from, url: url.href, ...(sameDocument ? { sameDocument } : {}) };
}
