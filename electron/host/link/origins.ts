/** Browser origins a debuggee page may connect from unless the user allows more. */
export const DEFAULT_ALLOWED_ORIGINS = [
  'http://localhost:*',
  'https://localhost:*',
  'http://127.0.0.1:*',
  'https://127.0.0.1:*',
  'http://[::1]:*',
  'https://[::1]:*',
];

/**
 * Whether a browser Origin header matches one of the patterns. A pattern is an origin where the
 * port may be `*` (any port, or none) and the host may start with `*.` (any subdomain).
 */
export function originAllowed(origin: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => patternToRegExp(pattern).test(origin));
}

const cache = new Map<string, RegExp>();

function patternToRegExp(pattern: string): RegExp {
  let regex = cache.get(pattern);
  if (!regex) {
    const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    const body = escaped.replace(/:\*$/, '(?::\\d{1,5})?').replace('://*\\.', '://(?:[a-z0-9-]+\\.)+');
    regex = new RegExp(`^${body}$`, 'i');
    cache.set(pattern, regex);
  }
  return regex;
}

export function isLoopbackAddress(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}
