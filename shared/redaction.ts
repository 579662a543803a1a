// What leaves the inspector for an agent: the one list of secret-looking names every plugin hides
// (network headers, query parameters and body fields; state paths; storage keys) and the walker
// that hides them in structured values. The window shows everything; MCP results, exports and the
// window's "Agent view" go through these.

/** What a hidden value is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Key names whose values are secrets wherever they appear (compared case-insensitively, ignoring
 * `-`, `_` and spaces): a field, a header, a query parameter, a state path's last part, a storage
 * key. What Reactotron, loggers and secret scanners hide by default: passwords, secrets, tokens of
 * every kind, API and private keys, auth and cookie headers, session ids, card numbers.
 */
export const SECRET_KEY_NAMES: readonly string[] = [
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'secret',
  'client_secret',
  'api_secret',
  'app_secret',
  'secret_key',
  'secret_access_key',
  'aws_secret_access_key',
  'private_key',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'auth_token',
  'session_token',
  'security_token',
  'x-amz-security-token',
  'api_token',
  'bearer_token',
  'csrf_token',
  'xsrf_token',
  'x-csrf-token',
  'x-xsrf-token',
  'x-auth-token',
  'x-access-token',
  'jwt',
  'api_key',
  'x-api-key',
  'access_key',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'session_id',
  'connection_string',
  'credentials',
  'credential',
  'otp',
  'card_number',
  'cvv',
  'cvc',
];

/**
 * Token shapes hidden wherever they appear in text (URLs, header values, bodies, log lines), as RE2
 * patterns (`(?i)` for any case): `shared/secret-text.ts` runs them (in the host: RE2 is large), the
 * network plugin's redaction rules start from them.
 */
export const SECRET_VALUE_PATTERNS: readonly { name: string; pattern: string }[] = [
  { name: 'bearer or basic credentials', pattern: '(?i)\\b(?:bearer|basic)\\s+[a-z0-9._~+/=-]{8,}' },
  { name: 'JSON Web Token', pattern: '\\beyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*' },
  {
    name: 'PEM private key block',
    pattern:
      '-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:[\\s\\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|[\\s\\S]*)',
  },
  { name: 'AWS access key id', pattern: '\\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\\b' },
  { name: 'GitHub token', pattern: '\\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\\b' },
  { name: 'GitLab token', pattern: '\\bglpat-[A-Za-z0-9_-]{20,}' },
  { name: 'Slack token', pattern: '\\bxox[abposr]-[A-Za-z0-9-]{10,}' },
  { name: 'Stripe secret or restricted key', pattern: '\\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}' },
  { name: 'Google API key', pattern: '\\bAIza[0-9A-Za-z_-]{35}' },
  { name: 'OpenAI or Anthropic key', pattern: '\\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}' },
  { name: 'npm token', pattern: '\\bnpm_[A-Za-z0-9]{36}\\b' },
  { name: 'SendGrid key', pattern: '\\bSG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}' },
];

/** The form names are compared in: lower case, without `-`, `_` and spaces. */
export const keyForm = (name: string): string => name.toLowerCase().replace(/[-_\s]/g, '');

const DEFAULT_KEYS = new Set(SECRET_KEY_NAMES.map(keyForm));
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
