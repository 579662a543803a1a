// What leaves the inspector for an agent: the one list of secret-looking names every plugin hides
// (network headers, query parameters and body fields; state paths; storage keys) and the walker
// that hides them in structured values. The window shows everything; MCP results, exports and the
// window's "Agent view" go through these.

/** What a hidden value is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Key names whose values are secrets wherever they appear (compared case-insensitively, ignoring
 * `-` and `_`): a field, a header, a query parameter, a state path's last part, a storage key.
 */
export const SECRET_KEY_NAMES: readonly string[] = [
  'password',
  'passwd',
  'secret',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'apikey',
  'authorization',
  'cookie',
  'setcookie',
  'proxyauthorization',
  'xapikey',
  'clientsecret',
  'privatekey',
  'sessionid',
];

/** The form names are compared in: lower case, without `-`, `_` and spaces. */
export const keyForm = (name: string): string => name.toLowerCase().replace(/[-_\s]/g, '');

const DEFAULT_KEYS = new Set(SECRET_KEY_NAMES);
const TAG_CONTAINERS = new Set(['props', 'items', 'entries']);

/** True when `name` (a field, header, key) is a secret by the default list or the extra names given. */
export function isSecretKey(name: string, extra?: ReadonlySet<string>): boolean {
  const form = keyForm(name);
  return DEFAULT_KEYS.has(form) || (extra?.has(form) ?? false);
}

export interface ValueRedaction {
  /** Extra key names (in `keyForm`) hidden at any depth, beside SECRET_KEY_NAMES. */
  keys?: ReadonlySet<string>;
  /** Dotted paths from the root (each part in `keyForm`), hidden whatever their key. */
  paths?: ReadonlySet<string>;
  /** Applied to every string left (e.g. token patterns): returns the string with secrets replaced. */
  text?: (value: string) => string;
}

/**
 * A JSON-like value (parsed JSON, a SerializedValue, a store's state) with the values of secret
 * keys and paths replaced by `[redacted]` and `text` applied to every other string. The input is
 * not changed; parts with nothing hidden are returned as they were. Past 64 levels a part is hidden whole.
 */
export function redactValue(value: unknown, rules: ValueRedaction = {}, path: readonly string[] = []): unknown {
  if (typeof value === 'string') return rules.text ? rules.text(value) : value;
  if (value === null || typeof value !== 'object') return value;
  if (path.length > 64) return REDACTED;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const next = redactValue(item, rules, path);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? out : value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  // A SerializedValue's containers (`{ $: 'object', props }`, items, entries) add no part to the path.
  const tagged = typeof (value as { $?: unknown }).$ === 'string';
  for (const [key, item] of Object.entries(value)) {
    if (tagged && TAG_CONTAINERS.has(key)) {
      const next = redactValue(item, rules, path);
      if (next !== item) changed = true;
      out[key] = next;
      continue;
    }
    const at = [...path, keyForm(key)];
    const hidden = isSecretKey(key, rules.keys) || (rules.paths?.has(at.join('.')) ?? false);
    const next = hidden && item !== null && item !== undefined ? REDACTED : redactValue(item, rules, at);
    if (next !== item) changed = true;
    out[key] = next;
  }
  return changed ? out : value;
}
