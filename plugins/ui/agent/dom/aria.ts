// Roles, accessible names, states and values of elements, after HTML-AAM and accname, kept small:
// enough for an agent to recognise what the user sees and act on it, not a screen reader.

const INPUT_ROLES: Record<string, string> = {
  button: 'button',
  submit: 'button',
  reset: 'button',
  image: 'button',
  file: 'button',
  checkbox: 'checkbox',
  radio: 'radio',
  range: 'slider',
  number: 'spinbutton',
  search: 'searchbox',
};

const TAG_ROLES: Record<string, string> = {
  ARTICLE: 'article',
  ASIDE: 'complementary',
  BLOCKQUOTE: 'blockquote',
  BUTTON: 'button',
  CAPTION: 'caption',
  DATALIST: 'listbox',
  DD: 'definition',
  DETAILS: 'group',
  DIALOG: 'dialog',
  DT: 'term',
  FIELDSET: 'group',
  FIGURE: 'figure',
  FORM: 'form',
  H1: 'heading',
  H2: 'heading',
  H3: 'heading',
  H4: 'heading',
  H5: 'heading',
  H6: 'heading',
  HR: 'separator',
  IFRAME: 'iframe',
  LI: 'listitem',
  MAIN: 'main',
  MENU: 'list',
  METER: 'meter',
  NAV: 'navigation',
  OL: 'list',
  OPTGROUP: 'group',
  OPTION: 'option',
  OUTPUT: 'status',
  P: 'paragraph',
  PROGRESS: 'progressbar',
  SEARCH: 'search',
  SUMMARY: 'button',
  TABLE: 'table',
  TD: 'cell',
  TEXTAREA: 'textbox',
  TH: 'columnheader',
  TR: 'row',
  UL: 'list',
};

/** Roles that take their name from their content (and show no children of their own). */
const NAME_FROM_CONTENT = new Set([
  'button',
  'link',
  'heading',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'treeitem',
  'checkbox',
  'radio',
  'switch',
  'tooltip',
  'cell',
  'gridcell',
  'columnheader',
  'rowheader',
]);

/** Roles whose element holds nothing more to show (a field shows its value). */
export const LEAVES = new Set([
  'textbox',
  'searchbox',
  'slider',
  'spinbutton',
  'progressbar',
  'meter',
  'img',
  'separator',
]);

/** Roles that are containers in the outline only when they say something (a name). */
const NAMED_ONLY = new Set(['form', 'region', 'group', 'paragraph', 'figure', 'blockquote', 'term', 'definition']);

const ROLE_ATTR = /^[a-z]+$/;

/** The element's role, or '' for one that only groups others (div, span, …). */
export function roleOf(el: Element, tag: string, inSection: boolean): string {
  const explicit = el.getAttribute('role');
  if (explicit) {
    const role = explicit.trim().split(/\s+/)[0]!.toLowerCase();
    if (role === 'none' || role === 'presentation' || role === 'generic') return '';
    if (ROLE_ATTR.test(role)) return role;
  }
  switch (tag) {
    case 'A':
    case 'AREA':
      return el.hasAttribute('href') ? 'link' : '';
    case 'INPUT': {
      const type = (el as HTMLInputElement).type;
      if (type === 'hidden') return '';
      const role = INPUT_ROLES[type];
      if (role) return role;
      return el.hasAttribute('list') ? 'combobox' : 'textbox';
    }
    case 'SELECT':
      return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox';
    case 'IMG':
      return el.getAttribute('alt') === '' && !el.hasAttribute('title') ? '' : 'img';
    case 'HEADER':
      return inSection ? '' : 'banner';
    case 'FOOTER':
      return inSection ? '' : 'contentinfo';
    case 'SECTION':
      return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : '';
    case 'SVG':
    case 'svg':
      return el.hasAttribute('aria-label') || el.querySelector('title') ? 'img' : '';
  }
  if ((el as HTMLElement).isContentEditable && el.getAttribute('contenteditable') !== null) return 'textbox';
  return TAG_ROLES[tag] ?? '';
}

/** Elements below which landmarks lose their landmark role (header, footer). */
export const SECTIONING = new Set(['ARTICLE', 'ASIDE', 'MAIN', 'NAV', 'SECTION']);

export const showsWithoutName = (role: string): boolean => !NAMED_ONLY.has(role);
export const nameFromContent = (role: string): boolean => NAME_FROM_CONTENT.has(role);

const SPACES = /\s+/g;
export const squash = (s: string): string => s.replace(SPACES, ' ').trim();

export function cut(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** The accessible name from the author (aria-labelledby, aria-label) and the native sources (labels, alt, legend, …). */
export function ownName(el: Element, tag: string, role: string): string {
  const labelledBy = el.getAttribute('aria-labelledby');
  if (labelledBy) {
    const root = el.getRootNode() as Document | ShadowRoot;
    const parts: string[] = [];
    for (const id of labelledBy.split(/\s+/)) {
      const ref = id && root.getElementById?.(id);
      if (ref) parts.push(ref === el ? (el.getAttribute('aria-label') ?? '') : contentText(ref, 300));
    }
    const name = squash(parts.join(' '));
    if (name) return name;
  }
  const label = el.getAttribute('aria-label');
  if (label?.trim()) return squash(label);
  switch (tag) {
    case 'INPUT': {
      const input = el as HTMLInputElement;
      const type = input.type;
      if (type === 'button' || type === 'submit' || type === 'reset') {
        return squash(input.value) || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
      }
      if (type === 'image') return squash(input.alt || input.value || 'Submit');
      return labelsText(input) || squash(el.getAttribute('title') ?? '') || squash(input.placeholder ?? '');
    }
    case 'TEXTAREA':
      return (
        labelsText(el as HTMLTextAreaElement) ||
        squash(el.getAttribute('title') ?? '') ||
        squash((el as HTMLTextAreaElement).placeholder ?? '')
      );
    case 'SELECT':
    case 'METER':
    case 'PROGRESS':
    case 'OUTPUT':
      return labelsText(el as HTMLSelectElement) || squash(el.getAttribute('title') ?? '');
    case 'BUTTON': {
      const labels = labelsText(el as HTMLButtonElement);
      if (labels) return labels;
      break;
    }
    case 'IMG':
    case 'AREA':
      return squash(el.getAttribute('alt') ?? '') || squash(el.getAttribute('title') ?? '');
    case 'FIELDSET':
      return childText(el, 'LEGEND');
    case 'TABLE':
      return childText(el, 'CAPTION');
    case 'FIGURE':
      return childText(el, 'FIGCAPTION');
    case 'IFRAME':
      return squash(el.getAttribute('title') ?? '');
    case 'svg':
    case 'SVG':
      return childText(el, 'title');
  }
  if (nameFromContent(role)) return '';
  return squash(el.getAttribute('title') ?? '');
}

function labelsText(el: { labels: NodeListOf<HTMLLabelElement> | null }): string {
  const labels = el.labels;
  if (!labels || labels.length === 0) return '';
  let text = '';
  for (const label of labels) text += ` ${contentText(label, 300, el as unknown as Element)}`;
  return squash(text);
}

function childText(el: Element, tag: string): string {
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    if (c.tagName === tag) return contentText(c, 300);
  }
  return '';
}

const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);

/**
 * The text an element shows, as its name from content: text nodes, images' alt, nested aria-labels,
 * form controls' values (except `skip`, the control a label names); hidden subtrees left out
 * (aria-hidden, the hidden attribute). Stops past `max` characters.
 */
export function contentText(el: Element, max: number, skip?: Element): string {
  let out = '';
  const visit = (node: Node): void => {
    for (let c = node.firstChild; c && out.length <= max; c = c.nextSibling) {
      if (c.nodeType === 3) {
        out += (c as Text).data;
        continue;
      }
      if (c.nodeType !== 1) continue;
      const e = c as Element;
      if (e === skip || SKIPPED.has(e.tagName) || e.hasAttribute('hidden') || e.getAttribute('aria-hidden') === 'true')
        continue;
      const label = e.getAttribute('aria-label');
      if (label) {
        out += ` ${label} `;
        continue;
      }
      const tag = e.tagName;
      if (tag === 'SLOT') {
        const assigned = (e as HTMLSlotElement).assignedNodes({ flatten: true });
        if (assigned.length === 0) visit(e);
        for (const node of assigned) {
          if (node.nodeType === 3) out += (node as Text).data;
          else if (node.nodeType === 1) visit(node);
        }
      } else if (tag === 'IMG') out += ` ${e.getAttribute('alt') ?? ''} `;
      else if (tag === 'INPUT' || tag === 'TEXTAREA') out += ` ${(e as HTMLInputElement).value} `;
      else if (tag === 'SELECT') out += ` ${(e as HTMLSelectElement).selectedOptions[0]?.text ?? ''} `;
      else if (tag === 'BR') out += ' ';
      else {
        if (BLOCKS.has(tag)) out += ' ';
        visit((e as Element).shadowRoot ?? e);
        if (BLOCKS.has(tag)) out += ' ';
      }
    }
  };
  visit(el.shadowRoot ?? el);
  return cut(squash(out), max);
}

const BLOCKS = new Set(['DIV', 'P', 'LI', 'TD', 'TH', 'TR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'SECTION', 'ARTICLE']);

/** States worth an agent's attention, as words. */
export function statesOf(el: Element, tag: string, role: string, focused: Element | null): string[] | undefined {
  const states: string[] = [];
  const attr = (name: string) => el.getAttribute(name);
  const input = el as HTMLInputElement;
  if (tag === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio')) {
    if (input.indeterminate) states.push('mixed');
    else if (input.checked) states.push('checked');
  } else {
    const checked = attr('aria-checked');
    if (checked === 'true') states.push('checked');
    else if (checked === 'mixed') states.push('mixed');
  }
  if (('disabled' in el && (el as HTMLButtonElement).disabled) || attr('aria-disabled') === 'true') {
    states.push('disabled');
  } else if (tag !== 'FIELDSET' && 'form' in el && el.matches(':disabled')) {
    states.push('disabled');
  }
  const expanded = attr('aria-expanded');
  if (expanded === 'true') states.push('expanded');
  else if (expanded === 'false') states.push('collapsed');
  else if (tag === 'SUMMARY' && el.parentElement?.tagName === 'DETAILS') {
    states.push((el.parentElement as HTMLDetailsElement).open ? 'expanded' : 'collapsed');
  }
  if (attr('aria-selected') === 'true' || (tag === 'OPTION' && (el as HTMLOptionElement).selected)) {
    states.push('selected');
  }
  if (attr('aria-pressed') === 'true') states.push('pressed');
  else if (attr('aria-pressed') === 'mixed') states.push('mixed');
  const current = attr('aria-current');
  if (current && current !== 'false') states.push('current');
  if (el === focused) states.push('focused');
  if (role === 'textbox' || role === 'searchbox' || role === 'combobox' || role === 'spinbutton') {
    if (input.required || attr('aria-required') === 'true') states.push('required');
    if (input.readOnly || attr('aria-readonly') === 'true') states.push('readonly');
  }
  if (attr('aria-invalid') === 'true' || (input.validity && !input.validity.valid && input.value !== '')) {
    states.push('invalid');
  }
  if (tag === 'DIALOG' && (el as HTMLDialogElement).open && el.matches(':modal')) states.push('modal');
  return states.length > 0 ? states : undefined;
}

/** What a form field holds (passwords never), a select's chosen options, a meter's reading. */
export function fieldValue(el: Element, tag: string, role: string): string | undefined {
  switch (tag) {
    case 'INPUT': {
      const input = el as HTMLInputElement;
      const type = input.type;
      if (type === 'password') return input.value ? '(hidden)' : undefined;
      if (type === 'checkbox' || type === 'radio' || type === 'button' || type === 'submit' || type === 'reset')
        return undefined;
      if (type === 'file') return input.files?.length ? [...input.files].map((f) => f.name).join(', ') : undefined;
      return input.value || undefined;
    }
    case 'TEXTAREA':
      return (el as HTMLTextAreaElement).value || undefined;
    case 'SELECT': {
      const chosen = [...(el as HTMLSelectElement).selectedOptions].map((o) => squash(o.text));
      return chosen.length ? chosen.join(', ') : undefined;
    }
    case 'PROGRESS':
    case 'METER': {
      const m = el as HTMLMeterElement;
      return `${m.value}/${m.max}`;
    }
  }
  if (role === 'textbox' && (el as HTMLElement).isContentEditable) return contentText(el, 1000) || undefined;
  const now = el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow');
  return now ?? undefined;
}

export function levelOf(el: Element, tag: string, role: string): number | undefined {
  if (role !== 'heading') return undefined;
  const aria = Number(el.getAttribute('aria-level'));
  if (aria >= 1 && aria <= 9) return aria;
  return tag.length === 2 && tag[0] === 'H' ? Number(tag[1]) : 2;
}

/** The element focus is in, through shadow roots and same-origin frames. */
export function deepActiveElement(doc: Document): Element | null {
  let active: Element | null = doc.activeElement;
  for (;;) {
    const inner: Element | null | undefined =
      active?.shadowRoot?.activeElement ??
      (active?.tagName === 'IFRAME' ? frameDocument(active as HTMLIFrameElement)?.activeElement : undefined);
    if (!inner || inner === active) return active;
    active = inner;
  }
}

export function frameDocument(frame: HTMLIFrameElement): Document | undefined {
  try {
    return frame.contentDocument ?? undefined;
  } catch {
    return undefined;
  }
}

/** A same-origin link as its path, others whole; at most 2000 characters. */
export function linkTarget(el: Element): string | undefined {
  const href = (el as HTMLAnchorElement).href;
  if (typeof href !== 'string' || !href) return undefined;
  try {
    const url = new URL(href);
    const here = el.ownerDocument.location;
    const shown = here && url.origin === here.origin ? `${url.pathname}${url.search}${url.hash}` : href;
    return cut(shown, 2000);
  } catch {
    return cut(href, 2000);
  }
}
