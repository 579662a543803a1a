import { REDACTED, SECRET_VALUE_PATTERNS } from './redaction.js';
import { compileRegex, type SafeRegex } from './safe-regex.js';

// The token patterns of shared/redaction.ts, compiled once, for the host's text (log lines, state
// strings, storage values) on its way to an agent. Kept apart from redaction.ts so that code which
// only needs the key names (an agent part) does not load RE2.

let compiled: SafeRegex[] | undefined;

/** `text` with every API key, token, JWT and private key block it holds replaced by `[redacted]`. */
export function redactSecretText(text: string): string {
  compiled ??= SECRET_VALUE_PATTERNS.map(({ pattern }) => compileRegex(pattern));
  let out = text;
  for (const re of compiled) out = re.replaceAll(out, REDACTED);
  return out;
}
