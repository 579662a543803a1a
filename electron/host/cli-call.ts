import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CallDetail, CallSummary } from '../../shared/call-record.js';
import { exportRecordedTest, type TestFramework } from '../../shared/recorded-test.js';
import { openHistory } from '../client/history-reader.js';
import {
  connectInspector,
  type Inspector,
  InspectorUnavailableError,
  listAllSessions,
  ToolCallError,
  type ToolListing,
} from '../client/inspector.js';
import { resolveDataDir } from './data-dir.js';

// `porthole tools` and `porthole call`: the running inspector's tools from a shell, through the
// typed client (surface `cli`, recorded in the history, same permissions as an MCP client).

/** Exit codes of `porthole call` (docs/cli.md). */
export const EXIT = { ok: 0, failed: 1, usage: 2, unavailable: 3, refused: 4, cancelled: 5 } as const;

const OWN_FLAGS = new Set(['json', 'session', 'text', 'out', 'data-dir', 'help']);

interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  anyOf?: JsonSchema[];
}

type Io = { out(text: string): void; err(text: string): void };
const stdio: Io = { out: (t) => process.stdout.write(`${t}\n`), err: (t) => process.stderr.write(`${t}\n`) };

export async function toolsCommand(argv: string[], io: Io = stdio): Promise<number> {
  const { flags } = splitFlags(argv);
  return withInspector(flags, io, async (inspector) => {
    const tools = await inspector.tools();
    if (flags.json === true) {
      io.out(JSON.stringify(tools, null, 2));
      return EXIT.ok;
    }
    for (const tool of tools) {
      const readOnly = tool.annotations?.readOnlyHint === true;
      io.out(`${tool.name}${readOnly ? '' : '  (changes things)'}\n    ${tool.title ?? ''}\n    ${usageOf(tool)}`);
    }
    io.out(`\n${tools.length} tools. \`porthole call <tool> --help\` shows one tool's arguments.`);
    return EXIT.ok;
  });
}

export async function callCommand(argv: string[], io: Io = stdio): Promise<number> {
  const { positionals, flags } = splitFlags(argv);
  const name = positionals[0];
  if (!name) {
    io.err('porthole call: name the tool, e.g. `porthole call inspector_list_sessions`; `porthole tools` lists them');
    return EXIT.usage;
  }
  return withInspector(flags, io, async (inspector) => {
    const tool = (await inspector.tools()).find((t) => t.name === name);
    if (!tool) {
      io.err(`porthole call: there is no tool named "${name}"; \`porthole tools\` lists them`);
      return EXIT.usage;
    }
    if (flags.help === true) {
      io.out(helpOf(tool));
      return EXIT.ok;
    }
    let args: Record<string, unknown>;
    try {
      args = argumentsOf(tool, flags);
    } catch (e) {
      io.err(`porthole call ${name}: ${(e as Error).message}\n\n${usageOf(tool)}`);
      return EXIT.usage;
    }
    try {
      const done = await inspector.callRaw(name, args);
      const images = done.result.content.filter((c) => c.type === 'image');
      if (typeof flags.out === 'string') {
        if (done.value === undefined && images.length) {
          images.forEach((image, i) => {
            const path = images.length === 1 ? (flags.out as string) : `${flags.out}.${i + 1}`;
            writeFileSync(path, Buffer.from((image as { data: string }).data, 'base64'));
            io.out(path);
          });
        } else {
          writeFileSync(flags.out, `${JSON.stringify(done.value ?? done.result, null, 2)}\n`);
          io.out(flags.out);
        }
      } else if (flags.text === true || done.value === undefined) {
        const texts = done.result.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
        if (flags.text === true || images.length === 0) io.out(texts.join('\n'));
        else io.out(JSON.stringify(done.result, null, 2));
      } else {
        io.out(JSON.stringify(done.value, null, 2));
      }
      return EXIT.ok;
    } catch (e) {
      if (!(e instanceof ToolCallError)) throw e;
      io.err(`porthole call ${name}: ${e.message}`);
      return e.status === 'refused' ? EXIT.refused : e.status === 'cancelled' ? EXIT.cancelled : EXIT.failed;
    }
  });
}

const HISTORY_HELP = `porthole history list [--since <time>] [--until <time>] [--client <name>] [--session <id>] [--limit <n>] [--json]
porthole history export-test [--framework vitest|playwright] [--since <time>] [--until <time>] [--client <name>]
                             [--session <id>] [--title <text>] [--out <file>]

  list          the calls in the inspector's history, oldest first: time, status, tool, session, client
  export-test   those calls as a porthole/client test file that replays them and checks what they
                answered (docs/testing.md, "A recorded session becomes a test"); stdout unless --out

  <time>: an ISO date and time (2026-12-05T14:03), a time today (14:03, 14:03:20), or how long ago
  (30s, 10m, 2h, 1d). --client matches a client's name ("claude-code") or name and version.`;

const HISTORY_FLAGS = new Set([
  'since',
  'until',
  'client',
  'session',
  'limit',
  'json',
  'framework',
  'title',
  'out',
  'data-dir',
  'help',
]);

/** `porthole history list|export-test`: the call history, read as the window reads it. */
export async function historyCommand(argv: string[], io: Io = stdio): Promise<number> {
  const { positionals, flags } = splitFlags(argv);
  const sub = positionals[0];
  if (flags.help === true || !sub) {
    (sub || flags.help === true ? io.out : io.err)(HISTORY_HELP);
    return flags.help === true ? EXIT.ok : EXIT.usage;
  }
  if (sub !== 'list' && sub !== 'export-test') {
    io.err(`porthole history: unknown command "${sub}"\n\n${HISTORY_HELP}`);
    return EXIT.usage;
  }
  let selection: Selection;
  let framework: TestFramework = 'vitest';
  try {
    const unknown = Object.keys(flags).find((f) => !HISTORY_FLAGS.has(f));
    if (unknown) throw new Error(`there is no flag --${unknown}`);
    selection = selectionOf(flags, Date.now());
    if (flags.framework !== undefined) {
      if (flags.framework !== 'vitest' && flags.framework !== 'playwright')
        throw new Error(`--framework is vitest or playwright, not ${String(flags.framework)}`);
      framework = flags.framework;
    }
  } catch (e) {
    io.err(`porthole history ${sub}: ${(e as Error).message}\n\n${HISTORY_HELP}`);
    return EXIT.usage;
  }
  const dataDir = resolveDataDir(typeof flags['data-dir'] === 'string' ? flags['data-dir'] : undefined);
  let history: Awaited<ReturnType<typeof openHistory>>;
  try {
    history = await openHistory(dataDir);
  } catch (e) {
    if (!(e instanceof InspectorUnavailableError)) throw e;
    io.err(`porthole: ${e.message}`);
    return EXIT.unavailable;
  }
  try {
    const calls = (await history.list()).filter((c) => selection.matches(c)).reverse();
    if (sub === 'list') {
      if (flags.json === true) io.out(JSON.stringify(calls, null, 2));
      else for (const c of calls) io.out(listLine(c));
      if (flags.json !== true) io.out(`${calls.length} call${calls.length === 1 ? '' : 's'}${selection.describe}.`);
      return EXIT.ok;
    }
    if (!calls.length) {
      io.err(
        `porthole history export-test: no call${selection.describe}; \`porthole history list\` shows what there is`,
      );
      return EXIT.failed;
    }
    const details: CallDetail[] = [];
    for (const c of calls) details.push(await history.get(c.id));
    return await withInspector(flags, io, async (inspector) => {
      const call = (name: string, args?: Record<string, unknown>) => inspector.callRaw(name, args).then((d) => d.value);
      const [sessions, tools] = await Promise.all([listAllSessions(call), inspector.tools()]);
      const exported = exportRecordedTest({
        framework,
        calls: details,
        sessions,
        tools,
        ...(typeof flags.title === 'string' ? { title: flags.title } : {}),
      });
      if (typeof flags.out === 'string') {
        try {
          mkdirSync(dirname(flags.out), { recursive: true });
          writeFileSync(flags.out, exported.code);
        } catch (e) {
          io.err(`porthole history export-test: could not write ${flags.out}: ${(e as Error).message}`);
          return EXIT.failed;
        }
      } else io.out(exported.code);
      const skipped = exported.skipped.length
        ? `; not replayed: ${exported.skipped.map((s) => `${s.tool} (${s.reason})`).join(', ')}`
        : '';
      io.err(
        `${typeof flags.out === 'string' ? `wrote ${flags.out}: ` : ''}a ${framework} test replaying ${exported.replayed} of ${calls.length} calls${skipped}`,
      );
      return EXIT.ok;
    });
  } finally {
    history.close();
  }
}

interface Selection {
  matches(call: CallSummary): boolean;
  /** " between … and … by … in session …", for messages. */
  describe: string;
}

function selectionOf(flags: Record<string, string | true>, now: number): Selection {
  const text = (name: string) => {
    const value = flags[name];
    if (value === true) throw new Error(`--${name} needs a value`);
    return value;
  };
  const since = text('since') !== undefined ? parseTime(text('since')!, now, '--since') : undefined;
  const until = text('until') !== undefined ? parseTime(text('until')!, now, '--until') : undefined;
  const client = text('client');
  const session = text('session');
  const limitText = text('limit');
  const limit = limitText === undefined ? undefined : Number(limitText);
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0))
    throw new Error('--limit is a whole number of calls');
  let taken = 0;
  const label = (c: CallSummary) => (c.client ? [c.client.name, `${c.client.name} ${c.client.version}`] : []);
  return {
    matches: (c) =>
      (since === undefined || c.startedAt >= since) &&
      (until === undefined || c.startedAt <= until) &&
      (client === undefined || label(c).includes(client)) &&
      (session === undefined || c.sessionId === session) &&
      (limit === undefined || taken++ < limit),
    describe: [
      since !== undefined && ` since ${new Date(since).toISOString()}`,
      until !== undefined && ` until ${new Date(until).toISOString()}`,
      client !== undefined && ` by ${client}`,
      session !== undefined && ` in session ${session}`,
    ]
      .filter(Boolean)
      .join(''),
  };
}

/** A time on the command line: ISO, a time of day today, or how long ago; never a bare number. */
export function parseTime(value: string, now: number, flag: string): number {
  const ago = /^(\d+(?:\.\d+)?)(s|m|h|d)$/.exec(value);
  if (ago) return now - Number(ago[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[ago[2] as 's']!;
  const clock = /^(\d{1,2}):(\d\d)(?::(\d\d))?$/.exec(value);
  if (clock) {
    const at = new Date(now);
    at.setHours(Number(clock[1]), Number(clock[2]), Number(clock[3] ?? 0), 0);
    return at.getTime();
  }
  if (/^\d+$/.test(value))
    throw new Error(
      `${flag} ${value}: a bare number could be seconds or milliseconds; give 10m, 2h, 14:03 or an ISO time`,
    );
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed)) throw new Error(`${flag} "${value}" is not a time: give 10m, 2h, 14:03 or an ISO time`);
  return parsed;
}

function listLine(c: CallSummary): string {
  const time = new Date(c.startedAt).toISOString().replace('T', ' ').slice(0, 23);
  const who = c.client ? `${c.client.name} ${c.client.version}` : c.surface;
  return `${time}  ${c.status.padEnd(9)} ${c.tool.padEnd(32)} ${(c.sessionId ?? '-').slice(0, 8).padEnd(8)}  ${who}`;
}

async function withInspector(
  flags: Record<string, string | true>,
  io: Io,
  run: (inspector: Inspector) => Promise<number>,
): Promise<number> {
  let inspector: Inspector;
  try {
    const dataDir = typeof flags['data-dir'] === 'string' ? flags['data-dir'] : undefined;
    inspector = await connectInspector({ dataDir, surface: 'cli', clientName: 'porthole-cli' });
  } catch (e) {
    if (!(e instanceof InspectorUnavailableError)) throw e;
    io.err(`porthole: ${e.message}`);
    return EXIT.unavailable;
  }
  try {
    return await run(inspector);
  } finally {
    await inspector.close().catch(() => {});
  }
}

/** `--name value`, `--name=value` and bare `--flag` (true); kebab-case names are the camelCase arguments. */
function splitFlags(argv: string[]): { positionals: string[]; flags: Record<string, string | true> } {
  const positionals: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const key = arg.slice(2, eq < 0 ? undefined : eq);
    if (eq >= 0) flags[key] = arg.slice(eq + 1);
    else if (i + 1 < argv.length && !(argv[i + 1] as string).startsWith('--')) flags[key] = argv[++i] as string;
    else flags[key] = true;
  }
  return { positionals, flags };
}

function argumentsOf(tool: ToolListing, flags: Record<string, string | true>): Record<string, unknown> {
  const schema = tool.inputSchema as JsonSchema;
  const properties = schema.properties ?? {};
  const args: Record<string, unknown> = {};
  if (typeof flags.json === 'string') {
    const parsed = parseJson(flags.json, '--json');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('--json must be a JSON object');
    Object.assign(args, parsed);
  }
  if (typeof flags.session === 'string') args.sessionId = flags.session;
  for (const [flag, given] of Object.entries(flags)) {
    if (OWN_FLAGS.has(flag)) continue;
    const name = flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const property = properties[name];
    if (!property) {
      throw new Error(`${tool.name} has no argument --${flag}`);
    }
    args[name] = convert(given, property, flag);
  }
  return args;
}

function convert(given: string | true, schema: JsonSchema, flag: string): unknown {
  const types = typesOf(schema);
  if (given === true) {
    if (types.has('boolean')) return true;
    throw new Error(`--${flag} needs a value`);
  }
  if (types.has('boolean') && (given === 'true' || given === 'false')) return given === 'true';
  if ((types.has('number') || types.has('integer')) && given.trim() !== '' && Number.isFinite(Number(given))) {
    return Number(given);
  }
  if (types.has('object') || types.has('array')) return parseJson(given, `--${flag}`);
  if (types.has('string') || types.size === 0) return given;
  throw new Error(`--${flag} expects ${[...types].join(' or ')}, not "${given}"`);
}

function typesOf(schema: JsonSchema): Set<string> {
  const types = new Set<string>();
  for (const s of [schema, ...(schema.anyOf ?? [])]) {
    for (const t of Array.isArray(s.type) ? s.type : s.type ? [s.type] : []) types.add(t);
    if (s.enum) types.add('string');
  }
  return types;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${what} is not valid JSON (${(e as Error).message})`);
  }
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function flagOf(name: string, schema: JsonSchema): string {
  const types = [...typesOf(schema)].join('|') || 'json';
  return types === 'boolean' ? `--${kebab(name)}` : `--${kebab(name)} <${types}>`;
}

function usageOf(tool: ToolListing): string {
  const schema = tool.inputSchema as JsonSchema;
  const required = new Set(schema.required ?? []);
  const flags = Object.entries(schema.properties ?? {}).map(([name, p]) =>
    required.has(name) ? flagOf(name, p) : `[${flagOf(name, p)}]`,
  );
  return `porthole call ${tool.name} ${flags.join(' ')}`.trimEnd();
}

function helpOf(tool: ToolListing): string {
  const schema = tool.inputSchema as JsonSchema;
  const required = new Set(schema.required ?? []);
  const lines = Object.entries(schema.properties ?? {}).map(([name, p]) => {
    const notes = [
      required.has(name) ? 'required' : undefined,
      p.enum ? `one of ${p.enum.join(', ')}` : undefined,
      p.default !== undefined ? `default ${JSON.stringify(p.default)}` : undefined,
    ].filter(Boolean);
    return `  ${flagOf(name, p).padEnd(34)} ${p.description ?? ''}${notes.length ? ` (${notes.join('; ')})` : ''}`;
  });
  return [
    `${tool.name}: ${tool.title ?? ''}`,
    '',
    tool.description ?? '',
    '',
    'Arguments:',
    ...(lines.length ? lines : ['  (none)']),
    '  --json <object>                    all arguments as one JSON object (flags override it)',
    '',
    "Output: the tool's value as JSON on stdout; --text for its text, --out <file> to write it (images as files).",
    `Exit codes: 0 done, 1 the tool failed, 2 bad usage, 3 no inspector, 4 refused by the window's permissions, 5 cancelled.`,
  ].join('\n');
}
