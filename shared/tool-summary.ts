import { SUMMARY_KEY, type ToolDefinition } from './tool.js';

/** A summary is one line of at most this many characters. */
export const MAX_SUMMARY_CHARS = 300;

/**
 * The one line every structured answer starts with (`summary`): clients that hand the model only
 * the structured content (Claude Code) still say what the answer holds and what to call next. The
 * tool's own `summarize` writes it; else it is made from the answer's shape: the lists and how many
 * items each holds, `total`, and with a `nextCursor` the call that gets the rest.
 */
// biome-ignore lint/suspicious/noExplicitAny: any tool's context
export function summarizeAnswer(tool: ToolDefinition<any>, structured: Record<string, unknown>): string {
  let line: string | undefined;
  if (tool.summarize) {
    try {
      line = tool.summarize(structured as never);
    } catch {
      // a summary that fails is replaced by the generic one: the answer itself is good
    }
  }
  return oneLine(typeof line === 'string' && line ? line : genericSummary(tool.name, tool.title, structured));
}

/** `{ summary, ...structured }`: the summary first, so a text mirror starts with it too. */
export function withSummary(
  // biome-ignore lint/suspicious/noExplicitAny: any tool's context
  tool: ToolDefinition<any>,
  structured: Record<string, unknown>,
): Record<string, unknown> {
  return { [SUMMARY_KEY]: summarizeAnswer(tool, structured), ...structured };
}

/** The JSON Schema of an output with the summary added (first, required). */
export function outputSchemaWithSummary(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = (schema.required ?? []) as string[];
  return {
    ...schema,
    properties: { [SUMMARY_KEY]: { type: 'string' }, ...properties },
    required: [SUMMARY_KEY, ...required],
  };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_SUMMARY_CHARS ? `${line.slice(0, MAX_SUMMARY_CHARS - 1)}…` : line;
}

function genericSummary(name: string, title: string, value: Record<string, unknown>): string {
  const parts: string[] = [];
  const lists = Object.entries(value).filter(([, v]) => Array.isArray(v)) as [string, unknown[]][];
  for (const [key, items] of lists.slice(0, 3)) parts.push(`${items.length} ${key}`);
  if (typeof value.total === 'number') parts.push(`of ${value.total}`);
  for (const key of ['more', 'dropped', 'truncated'] as const) {
    const n = value[key];
    if (typeof n === 'number' && n > 0) parts.push(`${n} ${key}`);
  }
  if (parts.length === 0) {
    const scalars = Object.entries(value)
      .filter(([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v))
      .slice(0, 4)
      .map(([k, v]) => `${k}: ${typeof v === 'string' && v.length > 60 ? `${v.slice(0, 59)}…` : String(v)}`);
    parts.push(scalars.length ? scalars.join(', ') : 'done');
  }
  let line = `${title}: ${parts.join(' ')}`;
  const next = value.nextCursor;
  if (typeof next === 'string' && next) line += `. More: call ${name} again with cursor "${next}"`;
  else if (lists.length > 0) line += '. That is all';
  return line;
}
