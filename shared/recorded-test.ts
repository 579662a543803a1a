import type { CallDetail } from './call-record.js';

// A recorded session as a test: calls from the call history become a `porthole/client` test file
// (Vitest, or Playwright with `porthole/playwright`) that makes the same calls again and checks what
// they answered then. Used by `porthole history export-test` and the window's "Save as test".
//
// What is checked: every call succeeds or fails as it did. Calls that only read (readOnlyHint) are
// also checked for what they answered, minus what differs from run to run (ids, times, sizes,
// cursors): strings, booleans and statuses, lists as "contains". Ids one call answered and a later
// call used (a transaction id, a rule id, a cursor, a console seq) become variables.

/** The plugins whose tools the typed client has as methods (`porthole.network.listTransactions`). */
export const TYPED_PLUGINS = ['network', 'console', 'example'] as const;

export type TestFramework = 'vitest' | 'playwright';

export interface ExportSession {
  id: string;
  app: { id: string; name: string };
  device: { id: string; name: string; platform?: string; page?: { url?: string; title?: string } };
}

export interface ExportTool {
  name: string;
  annotations?: { readOnlyHint?: boolean };
  /** Its output's JSON Schema, as tools/list gives it: an id read through a property it may leave out is read with `!`. */
  outputSchema?: unknown;
}

export interface ExportOptions {
  framework: TestFramework;
  /** The calls, in any order (they are replayed oldest first). */
  calls: readonly CallDetail[];
  /** The sessions the calls name, as inspector_list_sessions lists them. */
  sessions: readonly ExportSession[];
  /** The tools as tools/list describes them: a read-only tool's answer is checked. */
  tools: readonly ExportTool[];
  /** The test's title; default says how many calls, from whom, when. */
  title?: string;
}

export interface SkippedCall {
  id: string;
  tool: string;
  reason: string;
}

export interface ExportedTest {
  /** The test file. */
  code: string;
  /** A file name that says what it holds, e.g. `recorded-session.spec.ts`. */
  fileName: string;
  /** Calls replayed. */
  replayed: number;
  skipped: SkippedCall[];
}

/** Code to write as it is (a variable, a template string), inside a value written as code. */
class Code {
  constructor(readonly code: string) {}
}

/** `expect.arrayContaining(…)` and the like, around a value written as code. */
class Matcher {
  constructor(
    readonly fn: string,
    readonly value: unknown,
  ) {}
}

interface Capture {
  /** The string or number a call answered. */
  value: string | number;
  /** The expression that reads it from that call's variable. */
  expr: string;
  step: number;
}

const ID_KEY = /(^id$|Id$|^cursor$|Cursor$|^ref$)/;
const SEQ_KEY = /(^seq$|Seq$|^latest$|^since$)/;
/** Numbers that mean the same in every run. */
const STABLE_NUMBER_KEY = /^(status|statusCode|code|exitCode)$/;
/** Keys whose values differ from run to run, only page the answer or say it in words (summary). */
const VOLATILE_KEY =
  /(At$|Ms$|^time$|Time$|^next$|^summary$|^remaining$|^total$|^pending$|^dropped$|^latest$|^count$|Count$|^bytes$|Bytes$|[sS]ize$|^headers$|^timing$|Port$)/;
const LOOKS_LIKE_ID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$|^[0-9a-f-]{16,}$|^[a-z]+-[0-9a-z]{6,}(-\d+)?$/i;
const ISO_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;
const MAX_LIST_CHECKED = 10;
const MAX_STRING_CHECKED = 300;

export function exportRecordedTest(options: ExportOptions): ExportedTest {
  const calls = [...options.calls].sort((a, b) => a.startedAt - b.startedAt);
  const sessions = new Map(options.sessions.map((s) => [s.id, s]));
  const readOnly = new Map(options.tools.map((t) => [t.name, t.annotations?.readOnlyHint === true]));
  const outputs = new Map(options.tools.map((t) => [t.name, t.outputSchema]));
  const skipped: SkippedCall[] = [];
  const skip = (call: CallDetail, reason: string) => skipped.push({ id: call.id, tool: call.tool, reason });

  // Which calls are replayed, and (Playwright) the page's session: the one most calls went to.
  let kept = calls.filter((call) => {
    const reason = whyNotReplayed(call, readOnly);
    if (reason) skip(call, reason);
    return !reason;
  });
  const counts = new Map<string | undefined, number>();
  for (const call of kept) counts.set(call.sessionId, (counts.get(call.sessionId) ?? 0) + 1);
  const bySize = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  if (options.framework === 'playwright' && bySize.length > 1) {
    const page = bySize[0]![0];
    kept = kept.filter((call) => {
      if (call.sessionId === page) return true;
      skip(call, 'another session than the page’s: export each session on its own');
      return false;
    });
  }
  const sessionIds = [...new Set(kept.map((c) => c.sessionId))];
  const origins = new Map<string, string>();
  for (const id of sessionIds) {
    const url = id ? sessions.get(id)?.device.page?.url : undefined;
    const origin = url && originOf(url);
    if (origin && !origins.has(origin)) origins.set(origin, origins.size ? `origin${origins.size + 1}` : 'origin');
  }
  const text = (s: string): string | Code => {
    for (const [origin, name] of origins) {
      if (s.includes(origin))
        return new Code(`\`${escapeTemplate(s).split(escapeTemplate(origin)).join(`\${${name}}`)}\``);
    }
    return s;
  };

  const vars = new Map<string | undefined, string>(
    sessionIds.map((id, i) => [id, options.framework === 'playwright' || i === 0 ? 'porthole' : `porthole${i + 1}`]),
  );

  // Values answered by earlier calls that later calls pass back: those become variables.
  const captures: Capture[] = [];
  const used = new Set<number>();
  const steps: string[] = [];
  const uses = { answered: false, toolCallError: false, expect: false };
  kept.forEach((call, index) => {
    const step = index + 1;
    const client = vars.get(call.sessionId)!;
    const args = withCaptures(argsOf(call.args), captures, used, text);
    const typed = isTyped(call.tool) && call.status === 'succeeded';
    // Typed methods for the client's own plugins; any other tool (and a call that failed, maybe on
    // arguments the types refuse) through callRaw.
    const invocation = typed
      ? `${client}.${call.tool.slice(0, call.tool.indexOf('_'))}.${methodOf(call.tool)}(${args})`
      : `${client}.callRaw(${JSON.stringify(call.tool)}, ${args})`;
    const took = call.durationMs !== undefined ? `, ${Math.round(call.durationMs)} ms` : '';
    const lines = [`  // ${step}. ${call.tool} (${call.status}${took}, by ${clientOf(call)})`];
    if (call.status === 'failed') {
      uses.expect = uses.toolCallError = true;
      lines.push(...comment(`It failed: ${call.error ?? 'no message kept'}`));
      lines.push(`  await expect(${invocation}).rejects.toThrow(ToolCallError);`);
      steps.push(lines.join('\n'));
      return;
    }
    const answer = answerOf(call);
    const read = typed ? invocation : `(await ${invocation}).value`;
    const found =
      answer === undefined
        ? []
        : capturable(answer, typed ? `r${step}` : `(r${step} as any)`, step, outputs.get(call.tool));
    const checked = readOnly.get(call.tool) && answer !== undefined ? stable(answer, text) : undefined;
    if (checked !== undefined) {
      uses.answered = uses.expect = true;
      const reader = typed ? `() => ${read}` : `async () => ${read}`;
      lines.push(`  const r${step} = await answered(${reader}, ${write(checked, 2)});`);
    } else {
      lines.push(`  const r${step} = ${typed ? `await ${read}` : read};`);
    }
    captures.push(...found);
    steps.push(lines.join('\n'));
  });

  // Variables nothing reads are dropped again: `const rN = ` only where a later call uses rN.
  const body = steps
    .map((step, i) =>
      used.has(i + 1)
        ? step
        : step.replace(`const r${i + 1} = `, '').replace(/^( {2})\(await ([\s\S]*)\)\.value;$/m, '$1await $2;'),
    )
    .join('\n\n');
  const title = options.title ?? defaultTitle(kept);
  const header = headerOf(calls, kept.length, skipped);
  const code =
    options.framework === 'playwright'
      ? playwrightFile(
          header,
          title,
          body,
          origins,
          sessionIds[0] ? sessions.get(sessionIds[0]) : undefined,
          text,
          uses,
        )
      : vitestFile(header, title, body, origins, sessionIds, vars, sessions, uses);
  return {
    code,
    fileName: options.framework === 'playwright' ? 'recorded-session.spec.ts' : 'recorded-session.test.ts',
    replayed: kept.length,
    skipped,
  };
}

function whyNotReplayed(call: CallDetail, tools: Map<string, boolean>): string | undefined {
  if (call.status === 'running') return 'it had not finished';
  if (call.status === 'cancelled') return 'it was cancelled';
  if (call.status === 'refused') return "the user's permissions refused it";
  if (call.tool.startsWith('inspector_')) return 'an inspector tool: the test finds its session itself';
  if (!tools.has(call.tool)) return 'the inspector has no such tool now';
  if (!isArgs(call.args)) return 'its arguments were too long to be kept in the history';
  return undefined;
}

function isArgs(args: unknown): boolean {
  return (
    args === undefined || (typeof args === 'object' && args !== null && !Array.isArray(args) && !('(not kept)' in args))
  );
}

function argsOf(args: unknown): Record<string, unknown> {
  const { sessionId: _sessionId, ...rest } = (args ?? {}) as Record<string, unknown>;
  return rest;
}

const isTyped = (tool: string) => (TYPED_PLUGINS as readonly string[]).includes(tool.slice(0, tool.indexOf('_')));
const methodOf = (tool: string) =>
  tool.slice(tool.indexOf('_') + 1).replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const clientOf = (call: CallDetail) =>
  call.client ? `${call.client.name} ${call.client.version}` : call.surface === 'ui' ? 'the window' : call.surface;

function originOf(url: string): string | undefined {
  const m = /^(https?:\/\/[^/?#]+)/i.exec(url);
  return m?.[1];
}

/** What the call answered: its JSON (structured, or the text of a raw value), if any. */
function answerOf(call: CallDetail): unknown {
  const result = call.result;
  if (!result) return undefined;
  if (result.structuredContent) return result.structuredContent;
  const texts = result.content.filter((c) => c.type === 'text');
  if (texts.length !== 1 || result.content.length !== 1) return undefined;
  try {
    const parsed = JSON.parse((texts[0] as { text: string }).text) as unknown;
    return parsed && typeof parsed === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The part of a JSON Schema the expressions need: which properties an object always has. */
interface ObjectSchema {
  properties?: Record<string, unknown>;
  required?: string[];
  items?: unknown;
}

/**
 * The ids, cursors and seqs in an answer, each with the expression that reads it again; a property
 * the output schema does not require is read with `!` (`r4.rule!.id`), so the test type-checks.
 */
function capturable(answer: unknown, root: string, step: number, schema: unknown): Capture[] {
  const found: Capture[] = [];
  const visit = (value: unknown, key: string, expr: string, node: ObjectSchema | undefined) => {
    if (typeof value === 'string' && ID_KEY.test(key) && value.length >= 3) found.push({ value, expr, step });
    else if (typeof value === 'number' && SEQ_KEY.test(key)) found.push({ value, expr, step });
    else if (Array.isArray(value)) {
      value.slice(0, 100).forEach((item, i) => {
        visit(item, key, `${expr}${finder(item, i)}`, objectSchema(node?.items));
      });
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        const optional = node?.properties?.[k] !== undefined && !node.required?.includes(k);
        visit(v, k, `${expr}${property(k)}${optional ? '!' : ''}`, objectSchema(node?.properties?.[k]));
      }
    }
  };
  visit(answer, '', root, objectSchema(schema));
  return found;
}

const objectSchema = (schema: unknown): ObjectSchema | undefined =>
  schema && typeof schema === 'object' ? (schema as ObjectSchema) : undefined;

/** `.find((x) => x.url === … && x.method === …)!`, or `[i]!` when the item has nothing to tell it by. */
function finder(item: unknown, index: number): string {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return `[${index}]!`;
  const keys = Object.entries(item as Record<string, unknown>)
    .sort(([a], [b]) => rank(a) - rank(b))
    .filter(
      ([k, v]) =>
        /^[A-Za-z_$][\w$]*$/.test(k) &&
        ((typeof v === 'string' &&
          !ID_KEY.test(k) &&
          !VOLATILE_KEY.test(k) &&
          !LOOKS_LIKE_ID.test(v) &&
          v.length < 300) ||
          (typeof v === 'number' && STABLE_NUMBER_KEY.test(k))),
    )
    .slice(0, 3);
  if (!keys.length) return `[${index}]!`;
  const test = keys.map(([k, v]) => `x.${k} === ${JSON.stringify(v)}`).join(' && ');
  return `.find((x) => ${test})!`;
}

/** Which fields tell list items apart best, first. */
const TELLING = ['method', 'url', 'status', 'name', 'text', 'title', 'tool'];
const rank = (key: string) => (TELLING.includes(key) ? TELLING.indexOf(key) : TELLING.length);

const property = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);

/** The arguments as code: values an earlier call answered become that call's expression. */
function withCaptures(
  args: Record<string, unknown>,
  captures: Capture[],
  used: Set<number>,
  text: (s: string) => string | Code,
): string {
  const replace = (value: unknown, key: string): unknown => {
    if ((typeof value === 'string' && ID_KEY.test(key)) || (typeof value === 'number' && SEQ_KEY.test(key))) {
      const capture = captures.findLast((c) => c.value === value);
      if (capture) {
        used.add(capture.step);
        return new Code(capture.expr);
      }
    }
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map((v) => replace(v, key));
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replace(v, k)]));
    return value;
  };
  const replaced = replace(args, '') as Record<string, unknown>;
  return Object.keys(replaced).length ? write(replaced, 2) : '{}';
}

/**
 * What an answer says that another run of the same steps says too: strings (not ids or dates),
 * booleans and statuses; a list as "contains these"; undefined when nothing is left to check.
 */
function stable(value: unknown, text: (s: string) => string | Code, key = ''): unknown {
  if (typeof value === 'string') {
    if (ID_KEY.test(key) || VOLATILE_KEY.test(key) || LOOKS_LIKE_ID.test(value) || ISO_DATE.test(value))
      return undefined;
    if (value.length > MAX_STRING_CHECKED) return undefined;
    return text(value);
  }
  if (typeof value === 'number') return STABLE_NUMBER_KEY.test(key) ? value : undefined;
  if (typeof value === 'boolean') return VOLATILE_KEY.test(key) ? undefined : value;
  if (Array.isArray(value)) {
    if (value.length === 0) return [];
    const items = value
      .slice(0, MAX_LIST_CHECKED)
      .map((item) => stable(item, text, key))
      .filter((item) => item !== undefined);
    if (!items.length) return undefined;
    const contained = items.map((item) =>
      item && typeof item === 'object' && !(item instanceof Code) && !(item instanceof Matcher) && !Array.isArray(item)
        ? new Matcher('expect.objectContaining', item)
        : item,
    );
    return new Matcher('expect.arrayContaining', contained);
  }
  if (value && typeof value === 'object') {
    if (VOLATILE_KEY.test(key)) return undefined;
    const kept = Object.entries(value)
      .map(([k, v]) => [k, stable(v, text, k)] as const)
      .filter(([, v]) => v !== undefined);
    return kept.length ? Object.fromEntries(kept) : undefined;
  }
  return undefined;
}

/** A value as TypeScript, wrapped past 100 characters. */
function write(value: unknown, indent: number): string {
  const flat = writeFlat(value);
  if (flat.length + indent <= 100) return flat;
  const pad = ' '.repeat(indent + 2);
  const end = ' '.repeat(indent);
  if (value instanceof Code) return value.code;
  if (value instanceof Matcher) return `${value.fn}(${write(value.value, indent)})`;
  if (Array.isArray(value)) return `[\n${value.map((v) => `${pad}${write(v, indent + 2)},`).join('\n')}\n${end}]`;
  if (value && typeof value === 'object')
    return `{\n${Object.entries(value)
      .map(([k, v]) => `${pad}${key(k)}: ${write(v, indent + 2)},`)
      .join('\n')}\n${end}}`;
  return flat;
}

function writeFlat(value: unknown): string {
  if (value instanceof Code) return value.code;
  if (value instanceof Matcher) return `${value.fn}(${writeFlat(value.value)})`;
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return `[${value.map(writeFlat).join(', ')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${key(k)}: ${writeFlat(v)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return JSON.stringify(value);
}

const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
const escapeTemplate = (s: string) => s.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');

function comment(text: string): string[] {
  const words = text.replace(/\s+/g, ' ').trim().slice(0, 600).split(' ');
  const lines: string[] = [];
  let line = '  //';
  for (const word of words) {
    if (line.length + word.length > 100) {
      lines.push(line);
      line = '  //';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

function defaultTitle(calls: readonly CallDetail[]): string {
  const clients = [...new Set(calls.map(clientOf))];
  const when = calls[0] ? new Date(calls[0].startedAt).toISOString().slice(0, 16).replace('T', ' ') : '';
  return `replays ${calls.length} call${calls.length === 1 ? '' : 's'} by ${clients.join(', ') || 'nobody'}${when ? ` from ${when} UTC` : ''}`;
}

function headerOf(calls: readonly CallDetail[], replayed: number, skipped: SkippedCall[]): string[] {
  const first = calls[0]?.startedAt;
  const last = calls.at(-1)?.startedAt;
  const range =
    first !== undefined && last !== undefined
      ? [`// They were made between ${new Date(first).toISOString()} and ${new Date(last).toISOString()}.`]
      : [];
  const lines = [
    `// Recorded by Porthole: ${calls.length} call${calls.length === 1 ? '' : 's'} from its history.`,
    ...range,
    `// It makes the ${replayed} replayable ones again and checks what they answered then (ids, times and`,
    '// sizes aside); ids one call answered and a later call used are variables.',
  ];
  if (skipped.length) {
    lines.push(`// Not replayed (${skipped.length}):`);
    const shown = skipped.slice(0, 20).map((s) => `//   ${s.tool}: ${s.reason}`);
    lines.push(...shown);
    if (skipped.length > 20) lines.push(`//   … and ${skipped.length - 20} more`);
  }
  return lines;
}

const ANSWERED = `/** Calls \`read\` until it answers what the recorded call answered (the app may still be busy), and returns it. */
async function answered<T>(read: () => Promise<T>, expected: Record<string, unknown>): Promise<T> {
  let value: T | undefined;
  await expect.poll(async () => (value = await read()), { timeout: 10_000 }).toMatchObject(expected);
  return value as T;
}`;

function originLines(origins: Map<string, string>): string[] {
  return [...origins].map(
    ([origin, name]) => `const ${name} = ${JSON.stringify(origin)}; // where the app ran when it was recorded`,
  );
}

interface Uses {
  answered: boolean;
  toolCallError: boolean;
  expect: boolean;
}

function playwrightFile(
  header: string[],
  title: string,
  body: string,
  origins: Map<string, string>,
  session: ExportSession | undefined,
  text: (s: string) => string | Code,
  uses: Uses,
): string {
  const url = session?.device.page?.url;
  const goto = url
    ? [`  await page.goto(${writeFlat(text(url))});`, '']
    : ['  // The recorded session had no page URL: open the page here.', ''];
  return [
    ...header,
    ...(uses.toolCallError ? ["import { ToolCallError } from 'porthole/client';"] : []),
    `import { ${uses.expect ? 'expect, ' : ''}test } from 'porthole/playwright';`,
    '',
    ...originLines(origins),
    ...(origins.size ? [''] : []),
    `test(${JSON.stringify(title)}, async ({ page, porthole }) => {`,
    ...goto,
    body,
    '});',
    ...(uses.answered ? ['', ANSWERED] : []),
    '',
  ].join('\n');
}

function vitestFile(
  header: string[],
  title: string,
  body: string,
  origins: Map<string, string>,
  sessionIds: (string | undefined)[],
  vars: Map<string | undefined, string>,
  sessions: Map<string, ExportSession>,
  uses: Uses,
): string {
  const finds = sessionIds.map((id) => {
    const session = id ? sessions.get(id) : undefined;
    const match = session ? `{ appId: ${JSON.stringify(session.app.id)} }` : '{}';
    const note = session ? ` // ${session.app.name} on ${session.device.name}` : ' // the one connected app';
    return `  const ${vars.get(id)} = inspector.session((await inspector.waitForSession(${match})).id);${note}`;
  });
  return [
    ...header,
    '// Run it with the inspector running and the app connected.',
    `import { connectInspector, type Inspector${uses.toolCallError ? ', ToolCallError' : ''} } from 'porthole/client';`,
    `import { afterAll, beforeAll, ${uses.expect ? 'expect, ' : ''}test } from 'vitest';`,
    '',
    ...originLines(origins),
    ...(origins.size ? [''] : []),
    'let inspector: Inspector;',
    'beforeAll(async () => {',
    '  inspector = await connectInspector();',
    '});',
    'afterAll(async () => {',
    '  await inspector?.close();',
    '});',
    '',
    `test(${JSON.stringify(title)}, async () => {`,
    ...finds,
    '',
    body,
    '});',
    ...(uses.answered ? ['', ANSWERED] : []),
    '',
  ].join('\n');
}
