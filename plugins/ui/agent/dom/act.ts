import type { ActParams, ActResult, Dialog, SettleResult, UiNode } from '../../protocol.js';
import { cut, deepActiveElement, squash } from './aria.js';
import { type Key, parseKey } from './keys.js';
import { ChangeTracker } from './tracker.js';
import { visibility, Walker } from './walk.js';

// ui_act in a page: the events a person's mouse and keyboard make, in a browser's order (pointer,
// mouse, focus, click; beforeinput, input, change; keydown, keypress, keyup), dispatched on the
// element so the app's own handlers run (React's root listeners, Vue's and Svelte's on the element),
// and the browser's default actions done where a synthetic event does not get them (typing into a
// field, Tab, Enter submitting a form). Values go through the native setter, so React's controlled
// inputs see them as typed.

/** An action refused before any event: why, and what is in the way. */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly by?: Element,
  ) {
    super(message);
  }
}

type Win = Window & typeof globalThis;

const TEXT_INPUTS = new Set([
  'text',
  'search',
  'email',
  'url',
  'tel',
  'password',
  'number',
  'date',
  'time',
  'datetime-local',
  'month',
  'week',
  'color',
  'range',
]);
const FOCUSABLE =
  'a[href],area[href],button,input:not([type=hidden]),select,textarea,iframe,summary,[tabindex],[contenteditable]:not([contenteditable=false])';
/** What usually covers a page: the in-the-way element's container named in a refusal. */
const OVERLAYS = 'dialog,[role=dialog],[role=alertdialog],[aria-modal=true]';
const CHECKABLE_ROLES = new Set(['checkbox', 'switch', 'radio', 'menuitemcheckbox', 'menuitemradio']);
/** Settling: the page counts as done rendering after this long without a change, waiting at most the next. */
const QUIET_MS = 50;
const MAX_QUIET_WAIT_MS = 1000;
/**
 * After its answer an act keeps watching the page (and answering dialogs) this long, unless the
 * inspector asks it to hold (its requests are still going): then until `settle`, at most HELD_MS.
 */
const OPEN_MS = 300;
const HELD_MS = 10_000;

interface Open {
  tracker: ChangeTracker;
  dialogs: ReturnType<typeof answerDialogs>;
  timer: ReturnType<typeof setTimeout>;
  unload: () => void;
}

export class Actor {
  private hovered: Element | null = null;
  private open: Open | undefined;

  constructor(private readonly overlay: () => Element | null) {}

  async act(el: Element | undefined, params: ActParams, doc: Document): Promise<ActResult> {
    this.close();
    const owner = el?.ownerDocument ?? doc;
    const win = (owner.defaultView ?? window) as Win;
    const top = doc.defaultView ?? window;
    const urlBefore = top.location.href;
    const startedAt = Date.now();
    const t0 = performance.now();
    const focusedBefore = deepActiveElement(doc);
    const tracker = new ChangeTracker(owner, this.overlay(), el);
    const dialogs = answerDialogs(win, params.dialog);
    let unloading = false;
    const onUnload = () => {
      unloading = true;
    };
    top.addEventListener('beforeunload', onUnload);
    top.addEventListener('pagehide', onUnload);
    const unload = () => {
      top.removeEventListener('beforeunload', onUnload);
      top.removeEventListener('pagehide', onUnload);
    };
    let note: string | undefined;
    let scroll: { x: number; y: number } | undefined;
    try {
      const outcome = this.perform(el, params, owner, win);
      note = outcome.note;
      scroll = outcome.scroll;
    } catch (e) {
      tracker.stop();
      dialogs.restore();
      unload();
      if (e instanceof Refusal) {
        return {
          refused: {
            reason: e.message,
            ...(e.by ? { by: lineOf(e.by, doc) } : {}),
            ...(e.by?.closest(OVERLAYS) ? { within: lineOf(e.by.closest(OVERLAYS)!, doc) } : {}),
          },
          startedAt,
          urlBefore,
          url: urlBefore,
          changes: [],
          moreChanges: 0,
          dialogs: [],
        };
      }
      throw e;
    }
    let busy = performance.now() - t0;
    // Renders the handlers scheduled in microtasks (React's sync updates, Vue, Svelte) are done after
    // these; when they changed the page, so are the effects they scheduled for the next task (React's
    // useEffect: a fetch it starts belongs to this act). A page the act did not change answers at once;
    // one whose URL changed waits for the page to be quiet (hashchange and popstate come in later tasks).
    for (let i = 0; i < 3; i++) await Promise.resolve();
    if (top.location.href !== urlBefore) await tracker.quiet(QUIET_MS, MAX_QUIET_WAIT_MS);
    else if (tracker.changed()) await nextTask(win);
    const t1 = performance.now();
    const { changes, more } = tracker.take();
    const focused = deepActiveElement(doc);
    const result: ActResult = {
      startedAt,
      urlBefore,
      url: top.location.href,
      changes,
      moreChanges: more,
      dialogs: dialogs.list.splice(0),
    };
    if (el?.isConnected) {
      const line = lineOf(el, doc);
      if (line) result.target = line;
    }
    if (focused !== focusedBefore && focused && focused !== owner.body && focused !== el) {
      const line = lineOf(focused, doc);
      if (line) result.focused = line;
    }
    if (unloading) result.unloading = true;
    if (note) result.note = cut(note, 1000);
    if (scroll) result.scroll = scroll;
    busy += performance.now() - t1;
    result.ms = Math.round(busy * 100) / 100;
    this.open = { tracker, dialogs, unload, timer: setTimeout(() => this.close(), OPEN_MS) };
    return result;
  }

  /** What changed since the act answered; ends its watch. */
  async settle(doc: Document): Promise<SettleResult> {
    const open = this.open;
    const url = (doc.defaultView ?? window).location.href;
    if (!open) return { changes: [], moreChanges: 0, dialogs: [], url };
    await nextTask(doc.defaultView ?? window);
    // What the answers brought is rendering: wait for the page to be quiet a moment.
    await open.tracker.quiet(QUIET_MS, MAX_QUIET_WAIT_MS);
    const { changes, more } = open.tracker.take();
    const dialogs = open.dialogs.list.splice(0);
    this.close();
    return { changes, moreChanges: more, dialogs, url: (doc.defaultView ?? window).location.href };
  }

  hold(): void {
    const open = this.open;
    if (!open) return;
    clearTimeout(open.timer);
    open.timer = setTimeout(() => this.close(), HELD_MS);
  }

  close(): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    clearTimeout(open.timer);
    open.tracker.stop();
    open.dialogs.restore();
    open.unload();
  }

  private perform(
    el: Element | undefined,
    params: ActParams,
    doc: Document,
    win: Win,
  ): { note?: string; scroll?: { x: number; y: number } } {
    const values = Array.isArray(params.value) ? params.value : params.value === undefined ? [] : [params.value];
    const text = values[0];
    switch (params.action) {
      case 'press': {
        if (text === undefined) throw new Refusal('press needs value: the key, e.g. "Enter", "Escape", "Control+a"');
        let key: Key;
        try {
          key = parseKey(text);
        } catch (e) {
          throw new Refusal((e as Error).message);
        }
        const target = el ?? deepActiveElement(doc) ?? doc.body;
        if (el && deepActiveElement(doc) !== el) (el as HTMLElement).focus?.();
        return { note: this.press(target, key, win) };
      }
      case 'scroll':
        return { scroll: scrollBy(el, text, doc, win) };
    }
    if (!el) throw new Refusal(`${params.action} needs a ref: take a snapshot and pass the element's ref`);
    switch (params.action) {
      case 'click':
        this.click(pointerTarget(el, 'click'), win);
        return {};
      case 'hover': {
        const at = point(pointerTarget(el, 'hover'));
        this.hover(at.el, at.x, at.y, win);
        return {};
      }
      case 'focus': {
        (el as HTMLElement).focus?.();
        if (deepActiveElement(doc) !== el) return { note: 'the element did not take focus (it is not focusable)' };
        return {};
      }
      case 'fill':
        return { note: this.fill(el, text ?? '', params.submit === true, win) };
      case 'select':
        return { note: select(el, values, win) };
      case 'check':
      case 'uncheck':
        return { note: this.check(el, params.action === 'check', win) };
    }
    return {};
  }

  private click(el: Element, win: Win): void {
    const { x, y } = point(el);
    this.hover(el, x, y, win);
    const down = { buttons: 1, detail: 1 };
    const downOk = pointer('pointerdown', el, x, y, down, win);
    if (!downOk || mouse('mousedown', el, x, y, down, win)) {
      const focusable = el.closest(FOCUSABLE) as HTMLElement | null;
      if (focusable && !(focusable as HTMLButtonElement).disabled) focusable.focus({ preventScroll: true });
      else {
        const active = el.ownerDocument.activeElement as HTMLElement | null;
        if (active && active !== el.ownerDocument.body) active.blur?.();
      }
    }
    pointer('pointerup', el, x, y, { buttons: 0, detail: 1 }, win);
    if (downOk) mouse('mouseup', el, x, y, { buttons: 0, detail: 1 }, win);
    mouse('click', el, x, y, { buttons: 0, detail: 1 }, win);
  }

  private hover(el: Element, x: number, y: number, win: Win): void {
    const before = this.hovered?.isConnected ? this.hovered : null;
    if (before !== el) {
      const oldChain = chain(before);
      const newChain = chain(el);
      if (before) {
        pointer('pointerout', before, x, y, {}, win);
        mouse('mouseout', before, x, y, {}, win);
        for (const left of oldChain) {
          if (newChain.includes(left)) break;
          pointer('pointerleave', left, x, y, { bubbles: false }, win);
          mouse('mouseleave', left, x, y, { bubbles: false }, win);
        }
      }
      pointer('pointerover', el, x, y, {}, win);
      mouse('mouseover', el, x, y, {}, win);
      for (const entered of newChain.filter((e) => !oldChain.includes(e)).reverse()) {
        pointer('pointerenter', entered, x, y, { bubbles: false }, win);
        mouse('mouseenter', entered, x, y, { bubbles: false }, win);
      }
      this.hovered = el;
    }
    pointer('pointermove', el, x, y, {}, win);
    mouse('mousemove', el, x, y, {}, win);
  }

  private fill(el: Element, value: string, submit: boolean, win: Win): string | undefined {
    const tag = el.tagName;
    const input = el as HTMLInputElement;
    const editable = (el as HTMLElement).isContentEditable;
    if (tag === 'INPUT' && input.type === 'file') {
      throw new Refusal('file inputs cannot be filled: a page gets files only from the person choosing them');
    }
    if (!(tag === 'TEXTAREA' || editable || (tag === 'INPUT' && TEXT_INPUTS.has(input.type)))) {
      throw new Refusal(notAField(el));
    }
    refuseDisabled(el, 'filled');
    if (input.readOnly) throw new Refusal('the field is read-only: it cannot be filled');
    if (deepActiveElement(el.ownerDocument) !== el) (el as HTMLElement).focus();
    if (editable) {
      const doc = el.ownerDocument;
      const range = doc.createRange();
      range.selectNodeContents(el);
      const selection = doc.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      // execCommand sends beforeinput and input as typing does.
      if (!doc.execCommand('insertText', false, value)) {
        el.textContent = value;
        el.dispatchEvent(
          new win.InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: value }),
        );
      }
    } else {
      try {
        input.select();
      } catch {
        // a type without selection
      }
      const inputType = value === '' ? 'deleteContentBackward' : 'insertText';
      const data = value === '' ? null : value;
      const before = new win.InputEvent('beforeinput', {
        bubbles: true,
        cancelable: true,
        composed: true,
        inputType,
        data,
      });
      if (!el.dispatchEvent(before))
        return 'the app cancelled the input (its beforeinput handler), so the value did not change';
      setValue(el, value, win);
      el.dispatchEvent(new win.InputEvent('input', { bubbles: true, composed: true, inputType, data }));
      el.dispatchEvent(new win.Event('change', { bubbles: true }));
    }
    let note: string | undefined;
    const now = editable ? squash(el.textContent ?? '') : input.value;
    if (now !== (editable ? squash(value) : value)) {
      note = `the field holds ${JSON.stringify(cut(now, 200))}, not what was filled (its type, maxlength, or the app changed it)`;
    }
    if (submit) {
      const pressed = this.press(el, parseKey('Enter'), win);
      if (pressed) note = note ? `${note}; ${pressed}` : pressed;
    }
    return note;
  }

  private check(el: Element, want: boolean, win: Win): string | undefined {
    const input = el as HTMLInputElement;
    const native = el.tagName === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio');
    const role = el.getAttribute('role') ?? '';
    if (!native && !CHECKABLE_ROLES.has(role))
      throw new Refusal(`${notAField(el)}; check and uncheck take a checkbox, radio or switch`);
    const state = () => (native ? input.checked : el.getAttribute('aria-checked') === 'true');
    if (state() === want) return `it was already ${want ? 'checked' : 'unchecked'}: nothing was done`;
    if (!want && (input.type === 'radio' || role === 'radio' || role === 'menuitemradio')) {
      throw new Refusal('a radio button cannot be unchecked: check another one of its group');
    }
    refuseDisabled(el, want ? 'checked' : 'unchecked');
    this.click(pointerTarget(el, want ? 'check' : 'uncheck'), win);
    return state() === want ? undefined : `the app kept it ${want ? 'unchecked' : 'checked'}`;
  }

  /** Key events and the browser's default action for the key; a note when something was refused. */
  private press(target: Element, key: Key, win: Win): string | undefined {
    const init = (type: string, k: Key): KeyboardEventInit => ({
      key: k.key,
      code: k.code,
      keyCode: type === 'keypress' ? k.key.charCodeAt(0) : k.keyCode,
      charCode: type === 'keypress' ? k.key.charCodeAt(0) : 0,
      which: k.keyCode,
      ctrlKey: k.ctrlKey,
      shiftKey: k.shiftKey,
      altKey: k.altKey,
      metaKey: k.metaKey,
      bubbles: true,
      cancelable: true,
      composed: true,
      view: win,
    });
    const send = (type: string, k: Key, on: Element = target) =>
      on.dispatchEvent(new win.KeyboardEvent(type, init(type, k)));
    for (const m of key.modifiers) send('keydown', m);
    let note: string | undefined;
    let clickOnUp = false;
    if (send('keydown', key)) {
      const printable = key.key.length === 1 && !key.ctrlKey && !key.metaKey;
      const buttonLike = isButtonLike(target);
      if (key.key === 'Enter') {
        if (send('keypress', { ...key, keyCode: 13 })) note = enter(target, win, this);
      } else if (printable && key.key === ' ' && buttonLike) {
        clickOnUp = true;
      } else if (printable) {
        if (send('keypress', key)) insertText(target, key.key, win);
      } else if ((key.ctrlKey || key.metaKey) && key.key.toLowerCase() === 'a') {
        selectAll(target);
      } else if (key.key === 'Tab') {
        moveFocus(target.ownerDocument, key.shiftKey ? -1 : 1);
      } else if (key.key === 'Backspace' || key.key === 'Delete') {
        deleteText(target, key.key === 'Backspace', win);
      }
    }
    send('keyup', key, deepActiveElement(target.ownerDocument) ?? target);
    for (const m of [...key.modifiers].reverse()) send('keyup', m);
    if (clickOnUp) this.click(target, win);
    return note;
  }

  clickElement(el: Element, win: Win): void {
    this.click(el, win);
  }
}

/** Enter's default action: a line break in text areas, submitting the form of a text field, clicking a button or link. */
function enter(target: Element, win: Win, actor: Actor): string | undefined {
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || (target as HTMLElement).isContentEditable) {
    insertText(target, '\n', win);
    return undefined;
  }
  if (tag === 'INPUT' && !isButtonLike(target)) {
    const form = (target as HTMLInputElement).form;
    if (!form) return undefined;
    const submitter = form.querySelector(
      'button:not([type]),button[type=submit],input[type=submit],input[type=image]',
    ) as HTMLElement | null;
    if (submitter) {
      if ((submitter as HTMLButtonElement).disabled) return 'the form was not submitted: its submit button is disabled';
      actor.clickElement(submitter, win);
    } else form.requestSubmit();
    return undefined;
  }
  if (isButtonLike(target) || tag === 'A' || tag === 'SUMMARY') actor.clickElement(target, win);
  return undefined;
}

function isButtonLike(el: Element): boolean {
  const tag = el.tagName;
  if (tag === 'BUTTON' || tag === 'SUMMARY') return true;
  if (tag === 'INPUT') return /^(button|submit|reset|image|checkbox|radio)$/.test((el as HTMLInputElement).type);
  return /^(button|checkbox|radio|switch|menuitem|tab|option)$/.test(el.getAttribute('role') ?? '');
}

function insertText(target: Element, text: string, win: Win): void {
  if ((target as HTMLElement).isContentEditable) {
    target.ownerDocument.execCommand(text === '\n' ? 'insertLineBreak' : 'insertText', false, text);
    return;
  }
  const field = target as HTMLInputElement;
  if (!(target.tagName === 'TEXTAREA' || (target.tagName === 'INPUT' && TEXT_INPUTS.has(field.type)))) return;
  if (field.readOnly || field.disabled) return;
  const inputType = text === '\n' ? 'insertLineBreak' : 'insertText';
  const before = new win.InputEvent('beforeinput', {
    bubbles: true,
    cancelable: true,
    composed: true,
    inputType,
    data: text,
  });
  if (!target.dispatchEvent(before)) return;
  const [start, end] = selection(field);
  setValue(target, field.value.slice(0, start) + text + field.value.slice(end), win);
  trySelect(field, start + text.length);
  target.dispatchEvent(new win.InputEvent('input', { bubbles: true, composed: true, inputType, data: text }));
}

/** Control+a: everything in the field (or the editable element) selected. */
function selectAll(target: Element): void {
  if ((target as HTMLElement).isContentEditable) target.ownerDocument.execCommand('selectAll');
  else if (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA') (target as HTMLInputElement).select();
}

function deleteText(target: Element, backward: boolean, win: Win): void {
  if ((target as HTMLElement).isContentEditable) {
    target.ownerDocument.execCommand(backward ? 'delete' : 'forwardDelete');
    return;
  }
  const field = target as HTMLInputElement;
  if (!(target.tagName === 'TEXTAREA' || (target.tagName === 'INPUT' && TEXT_INPUTS.has(field.type)))) return;
  if (field.readOnly || field.disabled) return;
  let [start, end] = selection(field);
  if (start === end) {
    if (backward) start = Math.max(0, start - 1);
    else end = Math.min(field.value.length, end + 1);
  }
  if (start === end) return;
  const inputType = backward ? 'deleteContentBackward' : 'deleteContentForward';
  if (
    !target.dispatchEvent(
      new win.InputEvent('beforeinput', { bubbles: true, cancelable: true, composed: true, inputType }),
    )
  )
    return;
  setValue(target, field.value.slice(0, start) + field.value.slice(end), win);
  trySelect(field, start);
  target.dispatchEvent(new win.InputEvent('input', { bubbles: true, composed: true, inputType }));
}

function selection(field: HTMLInputElement): [number, number] {
  try {
    const start = field.selectionStart;
    const end = field.selectionEnd;
    if (start !== null && end !== null) return [start, end];
  } catch {
    // types without a selection (email, number)
  }
  return [field.value.length, field.value.length];
}

function trySelect(field: HTMLInputElement, at: number): void {
  try {
    field.setSelectionRange(at, at);
  } catch {
    // types without a selection
  }
}

/** Sets a field's value through the prototype's setter: React's value tracking sees a change. */
function setValue(el: Element, value: string, win: Win): void {
  const proto = el.tagName === 'TEXTAREA' ? win.HTMLTextAreaElement.prototype : win.HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter) setter.call(el, value);
  else (el as HTMLInputElement).value = value;
}

function select(el: Element, wanted: string[], win: Win): string | undefined {
  if (el.tagName !== 'SELECT') {
    throw new Refusal(
      `${notAField(el)}; select takes a <select>. For a custom list, click it to open it, then click the option's ref`,
    );
  }
  refuseDisabled(el, 'changed');
  const selectEl = el as HTMLSelectElement;
  if (wanted.length === 0) throw new Refusal('select needs value: the option labels or values to choose');
  if (wanted.length > 1 && !selectEl.multiple) throw new Refusal('this select takes one option; pass one value');
  const options = [...selectEl.options];
  const chosen = wanted.map((w) => {
    const low = w.toLowerCase();
    const found =
      options.find((o) => o.value === w) ??
      options.find((o) => squash(o.text) === w) ??
      options.find((o) => squash(o.text).toLowerCase() === low) ??
      options.find((o) => squash(o.text).toLowerCase().includes(low));
    if (!found) {
      const list = options
        .slice(0, 20)
        .map((o) => JSON.stringify(squash(o.text)))
        .join(', ');
      throw new Refusal(
        `no option matches ${JSON.stringify(w)}; the options: ${list}${options.length > 20 ? ', …' : ''}`,
      );
    }
    if (found.disabled) throw new Refusal(`the option ${JSON.stringify(squash(found.text))} is disabled`);
    return found;
  });
  if (deepActiveElement(el.ownerDocument) !== el) selectEl.focus();
  for (const option of options) option.selected = chosen.includes(option);
  el.dispatchEvent(new win.Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new win.Event('change', { bubbles: true }));
  return undefined;
}

function scrollBy(el: Element | undefined, direction: string | undefined, doc: Document, win: Win) {
  if (!direction) {
    if (!el) throw new Refusal('scroll needs a ref (scroll it into view) or value: up, down, left, right, top, bottom');
    el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    const root = doc.scrollingElement ?? doc.documentElement;
    return { x: root.scrollLeft, y: root.scrollTop };
  }
  const scroller = el ? scrollable(el) : (doc.scrollingElement ?? doc.documentElement);
  const page = scroller === doc.scrollingElement || scroller === doc.documentElement;
  const height = page ? win.innerHeight : scroller.clientHeight;
  const width = page ? win.innerWidth : scroller.clientWidth;
  const at = { top: scroller.scrollTop, left: scroller.scrollLeft };
  switch (direction) {
    case 'down':
      at.top += height * 0.8;
      break;
    case 'up':
      at.top -= height * 0.8;
      break;
    case 'right':
      at.left += width * 0.8;
      break;
    case 'left':
      at.left -= width * 0.8;
      break;
    case 'top':
      at.top = 0;
      break;
    case 'bottom':
      at.top = scroller.scrollHeight;
      break;
    default:
      throw new Refusal(`scroll takes value up, down, left, right, top or bottom (or none, to scroll a ref into view)`);
  }
  scroller.scrollTo({ ...at, behavior: 'instant' });
  return { x: scroller.scrollLeft, y: scroller.scrollTop };
}

function scrollable(el: Element): Element {
  for (let e: Element | null = el; e; e = e.parentElement) {
    if (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1) {
      const style = e.ownerDocument.defaultView?.getComputedStyle(e);
      if (style && /(auto|scroll)/.test(`${style.overflowY}${style.overflowX}`)) return e;
    }
  }
  return el.ownerDocument.scrollingElement ?? el.ownerDocument.documentElement;
}

/** The element a pointer action goes to: itself, or its visible label when the control is hidden (styled checkboxes). */
function pointerTarget(el: Element, what: string): Element {
  if (visibility(el) === true) return el;
  const labels = (el as HTMLInputElement).labels;
  if (labels) for (const label of labels) if (visibility(label) === true) return label;
  throw new Refusal(
    `the element cannot be ${what === 'hover' ? 'hovered' : `${what}ed`}: it is not visible (hidden, or display: none)`,
  );
}

/** The point a person would click: the element's centre, scrolled into view; refused when something else is on top. */
function point(el: Element): { el: Element; x: number; y: number } {
  let rect = el.getBoundingClientRect();
  const view = el.ownerDocument.defaultView ?? window;
  if (rect.width === 0 && rect.height === 0)
    throw new Refusal('the element has no size on screen, so it cannot be pointed at');
  if (rect.bottom < 0 || rect.right < 0 || rect.top > view.innerHeight || rect.left > view.innerWidth) {
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    rect = el.getBoundingClientRect();
  }
  const x = Math.min(Math.max(rect.left + rect.width / 2, 0), view.innerWidth - 1);
  const y = Math.min(Math.max(rect.top + rect.height / 2, 0), view.innerHeight - 1);
  const root = el.getRootNode() as Document | ShadowRoot;
  const hit = root.elementFromPoint?.(x, y) ?? null;
  if (hit && hit !== el && !el.contains(hit) && (hit as HTMLLabelElement).control !== el) {
    throw new Refusal(
      'another element covers it at its centre (a dialog, an overlay, a banner): close or act on that one first',
      hit,
    );
  }
  return { el, x, y };
}

function refuseDisabled(el: Element, what: string): void {
  if ((el as HTMLInputElement).disabled || el.getAttribute('aria-disabled') === 'true' || el.matches(':disabled')) {
    throw new Refusal(`the element is disabled, so it cannot be ${what}`);
  }
}

function notAField(el: Element): string {
  const line = new Walker({ limit: 1, maxChars: 1e6, depth: 0, focused: null }).root(el).nodes[0];
  return `the element is ${line ? `a ${line.role}${line.name ? ` "${cut(line.name, 60)}"` : ''}` : `a <${el.tagName.toLowerCase()}>`}, not a text field`;
}

function chain(el: Element | null): Element[] {
  const out: Element[] = [];
  for (let e = el; e; e = e.parentElement) out.push(e);
  return out;
}

function pointer(type: string, el: Element, x: number, y: number, init: MouseInit, win: Win): boolean {
  const Ctor = win.PointerEvent ?? win.MouseEvent;
  return el.dispatchEvent(
    new Ctor(type, { ...mouseInit(x, y, init, win), pointerId: 1, pointerType: 'mouse', isPrimary: true }),
  );
}

function mouse(type: string, el: Element, x: number, y: number, init: MouseInit, win: Win): boolean {
  return el.dispatchEvent(new win.MouseEvent(type, mouseInit(x, y, init, win)));
}

interface MouseInit {
  buttons?: number;
  detail?: number;
  bubbles?: boolean;
}

function mouseInit(x: number, y: number, init: MouseInit, win: Win): MouseEventInit {
  return {
    bubbles: init.bubbles ?? true,
    cancelable: init.bubbles !== false,
    composed: true,
    view: win,
    clientX: x,
    clientY: y,
    screenX: x + (win.screenX || 0),
    screenY: y + (win.screenY || 0),
    button: 0,
    buttons: init.buttons ?? 0,
    detail: init.detail ?? 0,
  };
}

/** Moves focus to the next (or previous) element Tab reaches: tabindex order, then the document's. */
function moveFocus(doc: Document, step: 1 | -1): void {
  const all = [...doc.querySelectorAll(FOCUSABLE)].filter((e) => {
    const t = (e as HTMLElement).tabIndex;
    return t >= 0 && !(e as HTMLInputElement).disabled && visibility(e) === true;
  }) as HTMLElement[];
  const positive = all.filter((e) => e.tabIndex > 0).sort((a, b) => a.tabIndex - b.tabIndex);
  const order = [...positive, ...all.filter((e) => e.tabIndex === 0)];
  const at = order.indexOf(doc.activeElement as HTMLElement);
  const next = order[at === -1 ? (step === 1 ? 0 : order.length - 1) : at + step];
  if (next) next.focus();
  else (doc.activeElement as HTMLElement | null)?.blur?.();
}

/** alert/confirm/prompt answered (and recorded) instead of blocking the page while an act is open. */
function answerDialogs(win: Win, answer: ActParams['dialog']) {
  const list: Dialog[] = [];
  const accepted = answer !== 'dismiss';
  const saved = { alert: win.alert, confirm: win.confirm, prompt: win.prompt };
  const record = (type: Dialog['type'], message: unknown) => {
    if (list.length < 50) {
      list.push({ type, message: cut(String(message ?? ''), 1000), answer: accepted ? 'accepted' : 'dismissed' });
    }
  };
  const ours = {
    alert: (message?: unknown) => record('alert', message),
    confirm: (message?: string) => {
      record('confirm', message);
      return accepted;
    },
    prompt: (message?: string, initial?: string) => {
      record('prompt', message);
      return accepted ? (initial ?? '') : null;
    },
  };
  Object.assign(win, ours);
  return {
    list,
    restore() {
      for (const key of ['alert', 'confirm', 'prompt'] as const) {
        if (win[key] === (ours[key] as unknown)) (win as unknown as Record<string, unknown>)[key] = saved[key];
      }
    },
  };
}

/** One element as its outline line. */
export function lineOf(el: Element, doc: Document): UiNode | undefined {
  const line = new Walker({ limit: 1, maxChars: 1e6, depth: 0, focused: deepActiveElement(doc) }).root(el).nodes[0];
  if (line) delete line.hidden;
  return line;
}

/** After the current task and its microtasks: a message through a channel (no timer clamping). */
function nextTask(win: Window): Promise<void> {
  return new Promise((resolve) => {
    const channel = new (win as Win).MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(0);
  });
}
