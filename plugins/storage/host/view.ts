import { RE2JS } from 're2js';
import { isSecretKey, REDACTED, redactValue } from '../../../shared/redaction.js';
import type { Entry, KeyInfo, ValueView } from '../protocol.js';

// Values as storage_get answers them, and the one place that decides what an AI agent may see of
// them: MCP answers, files written for MCP callers and the window's "Agent view" go through
// `forAgent` (the window itself shows everything).

/** Token patterns hidden in any text (the network plugin's defaults): a Bearer credential and a JWT. */
const TOKEN_PATTERNS = ['(?i)bearer\\s+[a-z0-9._~+/=-]+', 'eyJ[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*'].map(
  (p) => RE2JS.compile(p),
);
const MIGHT_HOLD_TOKEN = /eyJ|bearer/i;

/** A text with its token-like parts replaced (linear in the text: RE2). */
export function hideTokens(text: string): string {
  if (!MIGHT_HOLD_TOKEN.test(text)) return text;
  return TOKEN_PATTERNS.reduce((t, re) => re.matcher(t).replaceAll(() => REDACTED), text);
}

/**
 * A storage key whose values are secrets: a secret-looking name (SECRET_KEY_NAMES), whole or as
 * its last part after `.`, `:` or `/` (`supabase.auth.token`, `app:accessToken`), and the agent's
 * own resume ticket (`porthole.session.<app id>` in sessionStorage).
 */
export function isSecretStorageKey(key: string): boolean {
  if (key.startsWith('porthole.session.')) return true;
  const last = key.slice(Math.max(key.lastIndexOf('.'), key.lastIndexOf(':'), key.lastIndexOf('/')) + 1);
  return isSecretKey(key) || isSecretKey(last);
}

/** What the app read, as storage_get answers it: text that is JSON parsed, other text as text, structures as they came. */
export function viewOf(area: string, entry: Entry): ValueView {
  const { key, found, size, meta, note } = entry;
  const base: ValueView = { area, key, found };
  if (size !== undefined) base.size = size;
  if (meta) base.meta = meta;
  if (note) base.note = note;
  if (!found) return base;
  if (entry.text !== undefined) {
    const sliced = entry.offset !== undefined || entry.more === true;
    if (!sliced) {
      try {
        return { ...base, type: 'json', value: JSON.parse(entry.text) };
      } catch {
        // not JSON: text
      }
    }
    return {
      ...base,
      type: 'text',
      text: entry.text,
      ...(sliced ? { offset: entry.offset ?? 0 } : {}),
      ...(entry.length !== undefined ? { length: entry.length } : {}),
    };
  }
  return entry.value === undefined ? base : { ...base, type: 'value', value: entry.value };
}

const count = (json: string) => json.split(REDACTED).length - 1;

/**
 * The view as an AI agent may see it: the whole value hidden when its key (or the area) is secret;
 * else secret-looking fields at any depth and token-like text hidden. `hidden` counts what went.
 */
export function forAgent(view: ValueView, secretArea = false): ValueView {
  if (!view.found) return view;
  const before = count(JSON.stringify(view));
  let out: ValueView;
  if (secretArea || isSecretStorageKey(view.key)) {
    out = {
      ...view,
      ...(view.value !== undefined ? { value: REDACTED } : {}),
      ...(view.text !== undefined ? { text: REDACTED } : {}),
    };
  } else {
    out = { ...view };
    if (view.value !== undefined) out.value = redactValue(view.value, { text: hideTokens }) as ValueView['value'];
    if (view.text !== undefined) out.text = hideTokens(view.text);
  }
  if (view.meta) out.meta = redactValue(view.meta, { text: hideTokens }) as ValueView['meta'];
  const hidden = count(JSON.stringify(out)) - before;
  return hidden > 0 ? { ...out, hidden } : out;
}

/**
 * A key list entry as an AI agent may see it: a preview only when it is the whole value, with the
 * same redaction (a cut JSON text cannot be walked, so it is left out).
 */
export function keyForAgent(info: KeyInfo, secretArea = false): KeyInfo {
  const { preview, previewCut, ...rest } = info;
  if (preview === undefined || previewCut || secretArea) return rest;
  if (isSecretStorageKey(info.key)) return { ...rest, preview: REDACTED };
  try {
    return { ...rest, preview: JSON.stringify(redactValue(JSON.parse(preview), { text: hideTokens })) };
  } catch {
    return { ...rest, preview: hideTokens(preview) };
  }
}
