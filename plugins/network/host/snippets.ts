import { REDACTED, type Transaction } from '../protocol.js';

// Copy-ready code that repeats a captured request. Headers a client sets by itself (host,
// content-length, connection, …) are left out; redacted values stay visibly redacted.

const SKIPPED = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'accept-encoding',
  'upgrade',
  'te',
]);

type Request = Pick<Transaction['request'], 'method' | 'url' | 'headers' | 'body'>;

function headersOf(request: Request) {
  return request.headers.filter(({ name }) => !SKIPPED.has(name.toLowerCase()) && !name.startsWith(':'));
}

/** POSIX shell single-quoting: safe for any text. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A cURL command line. A binary body is decoded from base64 on the fly; a truncated one is flagged. */
export function toCurl(request: Request): string {
  const method = request.method.toUpperCase();
  const first = ['curl'];
  if (method !== 'GET' || request.body !== undefined) first.push('-X', shellQuote(method));
  first.push(shellQuote(request.url));
  const lines = [first.join(' ')];
  for (const { name, value } of headersOf(request)) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  const notes: string[] = [];
  let prefix = '';
  if (request.body) {
    if (request.body.encoding === 'text') lines.push(`--data-raw ${shellQuote(request.body.data)}`);
    else {
      prefix = `printf %s ${shellQuote(request.body.data)} | base64 -d | `;
      lines.push('--data-binary @-');
    }
    if (request.body.truncated) notes.push('# the body was truncated when captured: this sends only its first part');
  }
  if (request.headers.some((h) => h.value === REDACTED)) notes.push(`# replace ${REDACTED} with the real values`);
  return [...notes, prefix + lines.join(' \\\n  ')].join('\n');
}

/** A `fetch(...)` call for JavaScript/TypeScript. */
export function toFetch(request: Request): string {
  const init: string[] = [`  method: ${JSON.stringify(request.method.toUpperCase())},`];
  const headers = headersOf(request);
  if (headers.length) {
    init.push('  headers: {');
    for (const { name, value } of headers) init.push(`    ${JSON.stringify(name)}: ${JSON.stringify(value)},`);
    init.push('  },');
  }
  const notes: string[] = [];
  if (request.body) {
    if (request.body.encoding === 'text') init.push(`  body: ${JSON.stringify(request.body.data)},`);
    else init.push(`  body: Uint8Array.from(atob(${JSON.stringify(request.body.data)}), (c) => c.charCodeAt(0)),`);
    if (request.body.truncated) notes.push('// the body was truncated when captured: this sends only its first part');
  }
  if (request.headers.some((h) => h.value === REDACTED)) notes.push(`// replace ${REDACTED} with the real values`);
  return [...notes, `await fetch(${JSON.stringify(request.url)}, {`, ...init, '});'].join('\n');
}
