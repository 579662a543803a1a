import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { briefSchema, definePluginTool, ToolArgumentError } from '../../../shared/tool.js';
import { AreaSchema, type Entry, KeyInfoSchema, MAX_KEY_CHARS, MAX_VALUE_CHARS, type ValueView } from '../protocol.js';
import type { StorageHost } from './host-api.js';
import { forAgent, keyForAgent, viewOf } from './view.js';

const tool = definePluginTool<StorageHost>();

/** Keys per storage_list page, and about the most characters of JSON in one. */
const PAGE_KEYS = 100;
const PAGE_CHARS = 20_000;
/** Areas per answer when listing them. */
const PAGE_AREAS = 60;
/** Characters of a value in storage_get's answer; of each record of a range; records per range page. */
const VALUE_CHARS = 20_000;
const RECORD_CHARS = 1_000;
const RANGE_RECORDS = 20;
/** Characters of before/after in a change's answer. */
const CHANGE_CHARS = 2_000;
/** Characters read per request when a whole text goes to a file, and the most read. */
const FILE_CHUNK = 1_000_000;
const FILE_MAX_CHARS = 64_000_000;

// Arguments are checked in full; tools/list writes them as their type and text (storage's share of
// tools/list is about 2.5 KB).
const text = (max: number, brief: string) => briefSchema(z.string().min(1).max(max), brief);
const areaArg = text(2048, 'From storage_list.');
const keyArg = text(MAX_KEY_CHARS, 'From storage_list.');
const cursorArg = text(MAX_KEY_CHARS + 2, "The last answer's cursor.").optional();

/**
 * One value as an MCP client gets it (the window's ValueView without its area): `value` holds text
 * that is JSON, parsed, or a stored structure; `text` other text.
 */
const ValueSchema = z.object({
  found: z.boolean(),
  value: z.unknown().optional(),
  text: z.string().optional(),
  size: z.number().optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
  note: z.string().optional(),
});
const KeyedValueSchema = ValueSchema.extend({ key: z.string() });
type Value = z.infer<typeof ValueSchema>;
type KeyedValue = z.infer<typeof KeyedValueSchema>;

/** A view as the tools answer it: what the agent may see, its slice and redaction said in `note`. */
function answer(view: ValueView, agent: boolean, secret: boolean | undefined): KeyedValue {
  const shownView = agent ? forAgent(view, secret) : view;
  const { area: _area, key, type: _type, offset: _offset, length: _length, hidden, note, ...rest } = shownView;
  const notes = [note, hidden ? `${hidden} value${hidden === 1 ? '' : 's'} hidden from AI agents as [redacted]` : '']
    .filter(Boolean)
    .join('; ');
  return { key, ...rest, ...(notes ? { note: notes } : {}) };
}

/** One value as storage_get answers it (the caller knows the key). */
function single(view: ValueView, agent: boolean, secret: boolean | undefined): Value {
  const { key: _key, ...value } = answer(view, agent, secret);
  return value;
}

/** Cursors say what they continue: `k` a key list or range after a key, `o` a text from an offset, `a` the areas. */
function cursorOf(cursor: string | undefined, kind: 'k' | 'o' | 'a'): string | undefined {
  if (cursor === undefined) return undefined;
  if (cursor[0] !== kind) {
    throw new ToolArgumentError(
      `cursor "${cursor.slice(0, 40)}" does not continue this call: pass the cursor the previous answer gave, with the same area, key and prefix`,
    );
  }
  return cursor.slice(1);
}

export const listStorage = tool({
  name: 'storage_list',
  title: 'List storage',
  description:
    "Without area: the app's storage areas (web storage, cookies, IndexedDB, caches, AsyncStorage, MMKV…) with sizes. With area: its keys, sizes, previews; 100 a page.",
  input: z.object({
    area: text(2048, 'E.g. localStorage, indexedDB/<db>/<store>.').optional(),
    prefix: text(MAX_KEY_CHARS, 'Keys starting with this.').optional(),
    cursor: cursorArg,
  }),
  output: z.object({
    areas: z.array(AreaSchema).optional(),
    keys: z.array(KeyInfoSchema).optional(),
    totals: z.object({ keys: z.number(), size: z.number().optional(), matched: z.number().optional() }).optional(),
    note: z.string().optional(),
    cursor: z.string().optional(),
    next: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler({ area, prefix, cursor }, { instance, signal, surface }) {
    if (area === undefined) {
      if (prefix !== undefined)
        throw new ToolArgumentError('prefix needs an area: call storage_list without it for the areas');
      const from = Number(cursorOf(cursor, 'a') ?? 0);
      const all = await instance.areas(signal);
      if (all.length === 0) {
        return {
          areas: [],
          note: 'the app has no storage the plugin can see: a Node app (or a store of its own) passes it as an adapter, storage({ adapters: [{ name, keys, get, set?, remove? }] })',
        };
      }
      const areas = all.slice(from, from + PAGE_AREAS);
      const rest = all.length - from - areas.length;
      return rest > 0
        ? { areas, cursor: `a${from + areas.length}`, next: `${rest} more areas: call again with the cursor` }
        : { areas };
    }
    const after = cursorOf(cursor, 'k');
    const page = await instance.keys({ area, prefix, after, limit: PAGE_KEYS }, signal);
    const keys = surface === 'ui' ? page.keys : page.keys.map((k) => keyForAgent(k, page.secret));
    let size = JSON.stringify(keys).length;
    let last = page.after;
    while (size > PAGE_CHARS && keys.length > 1) {
      size -= JSON.stringify(keys.pop()).length + 1;
      last = keys.at(-1)!.key;
    }
    const { total, totalSize, matched, note } = page;
    return {
      keys,
      totals: {
        keys: total,
        ...(totalSize !== undefined ? { size: totalSize } : {}),
        ...(matched !== undefined ? { matched } : {}),
      },
      ...(note ? { note } : {}),
      ...(last !== undefined
        ? { cursor: `k${last}`, next: 'more keys: call again with the cursor (and the same area and prefix)' }
        : {}),
    };
  },
});

const FileSchema = z.object({ path: z.string(), uri: z.string(), bytes: z.number() });

/** The whole value: text read in slices, a structure up to MAX_VALUE_CHARS. */
async function wholeEntry(instance: StorageHost, area: string, key: string, signal: AbortSignal): Promise<Entry> {
  const { entries } = await instance.get({ area, key, maxChars: FILE_CHUNK }, signal);
  let entry = entries[0] ?? { key, found: false };
  if (entry.found && entry.text === undefined && entry.more) {
    entry = (await instance.get({ area, key, maxChars: MAX_VALUE_CHARS }, signal)).entries[0] ?? entry;
  }
  let text = entry.text;
  while (text !== undefined && entry.more && text.length < FILE_MAX_CHARS) {
    const next = (await instance.get({ area, key, offset: text.length, maxChars: FILE_CHUNK }, signal)).entries[0];
    if (!next?.found || next.text === undefined || next.text === '') break;
    text += next.text;
    entry = { ...next, text };
  }
  if (text === undefined) return entry;
  const { offset: _offset, ...rest } = entry;
  return { ...rest, text, more: entry.more === true };
}

export const getValue = tool({
  name: 'storage_get',
  title: 'Read a stored value',
  description:
    'A value: JSON parsed, IndexedDB records as stored, binary described. Long text: in slices (cursor) or a file. With to: a key range.',
  input: z.object({
    area: areaArg,
    key: keyArg,
    to: text(MAX_KEY_CHARS, 'Last key of a range (20 a page).').optional(),
    cursor: cursorArg,
    file: z.boolean().optional().describe('Write it to a file.'),
  }),
  output: ValueSchema.extend({
    records: z.array(KeyedValueSchema).optional(),
    file: FileSchema.optional(),
    cursor: z.string().optional(),
    next: z.string().optional(),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler({ area, key, to, cursor, file }, { instance, signal, surface, session }) {
    const agent = surface !== 'ui';
    if (to !== undefined) {
      if (file) throw new ToolArgumentError('file writes one value: leave out to, or file');
      const after = cursorOf(cursor, 'k');
      const page = await instance.get({ area, key, to, after, limit: RANGE_RECORDS, maxChars: RECORD_CHARS }, signal);
      const records = page.entries.map((e) => answer(viewOf(area, e), agent, e.secret));
      return {
        found: records.length > 0,
        records,
        ...(page.after !== undefined
          ? { cursor: `k${page.after}`, next: 'more records: call again with the cursor (and the same key and to)' }
          : {}),
      };
    }
    if (file) {
      if (cursor !== undefined) throw new ToolArgumentError('file writes the whole value: leave out cursor');
      const entry = await wholeEntry(instance, area, key, signal);
      const view = single(viewOf(area, entry), agent, entry.secret);
      if (!view.found) return notFound(view, area, key);
      const asText = view.text !== undefined;
      const content = asText ? (view.text ?? '') : JSON.stringify(view.value ?? null, null, 2);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const name = `storage-${session.id.slice(0, 8)}-${area}-${key}`.slice(0, 120);
      const saved = instance.saveExport(`${name}-${stamp}.${asText ? 'txt' : 'json'}`, content);
      const { value: _value, text: _text, ...summary } = view;
      return {
        ...summary,
        file: { path: saved.path, uri: pathToFileURL(saved.path).href, bytes: saved.bytes },
        ...(entry.more ? { next: `the file holds the first ${FILE_MAX_CHARS.toLocaleString('en')} characters` } : {}),
      };
    }
    const offset = Number(cursorOf(cursor, 'o') ?? 0);
    if (!Number.isSafeInteger(offset) || offset < 0)
      throw new ToolArgumentError('that cursor is not one storage_get gave');
    const { entries } = await instance.get({ area, key, offset, maxChars: VALUE_CHARS }, signal);
    const entry = entries[0] ?? { key, found: false };
    const view = single(viewOf(area, entry), agent, entry.secret);
    if (!view.found) return notFound(view, area, key);
    if (view.text !== undefined && entry.more) {
      const to = offset + (entry.text?.length ?? 0);
      const left =
        entry.length !== undefined ? `${(entry.length - to).toLocaleString('en')} more characters` : 'more text';
      return {
        ...view,
        cursor: `o${to}`,
        next: `characters ${offset.toLocaleString('en')}–${to.toLocaleString('en')}; ${left}: call again with the cursor, or file: true for all of it`,
      };
    }
    if (entry.more) {
      return {
        ...view,
        next: `cut to about ${VALUE_CHARS.toLocaleString('en')} characters ({ "$": "cut" } marks what is left out): file: true writes it whole`,
      };
    }
    return view;
  },
  links: (structured) => {
    const file = structured.file as z.infer<typeof FileSchema> | undefined;
    if (!file) return [];
    return [
      {
        type: 'resource_link',
        uri: file.uri,
        name: basename(file.path),
        mimeType: file.path.endsWith('.json') ? 'application/json' : 'text/plain',
        size: file.bytes,
      },
    ];
  },
});

function notFound(view: Value, area: string, key: string): Value {
  return {
    ...view,
    note: `${area} has no key ${JSON.stringify(key)} (now): storage_list { area: ${JSON.stringify(area)} } lists its keys`,
  };
}

const preview = (value: string) => (value.length > 80 ? `${value.slice(0, 80)}…` : value);
const change = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } as const;

type Change = { area: string; key?: string; value?: string; remove?: boolean; clear?: boolean };

function describeStorageChange({ area, key, value, clear }: Change): string {
  if (clear) return `Clears the app's ${area}: removes every key.`;
  if (value === undefined) return `Removes ${JSON.stringify(key)} from the app's ${area}.`;
  return `Writes ${JSON.stringify(key)} in the app's ${area}: ${preview(value)} (${value.length.toLocaleString('en')} characters), replacing what is there.`;
}

/** Which of set, remove and clear the arguments ask for; throws what to pass when they ask for none or two. */
function changeOf({ key, value, remove, clear }: Change): 'set' | 'remove' | 'clear' {
  const asked = [value !== undefined && 'value', remove && 'remove: true', clear && 'clear: true'].filter(Boolean);
  if (asked.length > 1)
    throw new ToolArgumentError(`pass one of value, remove: true or clear: true, not ${asked.join(' and ')}`);
  if (clear) {
    if (key !== undefined) throw new ToolArgumentError('clear: true removes every key of the area; leave key out');
    return 'clear';
  }
  if (key === undefined)
    throw new ToolArgumentError(
      'name the key (storage_list lists them), or pass clear: true to remove every key of the area',
    );
  if (remove) return 'remove';
  if (value === undefined)
    throw new ToolArgumentError(`pass value to write ${JSON.stringify(key)}, or remove: true to remove it`);
  return 'set';
}

export const setValue = tool({
  name: 'storage_set',
  title: 'Write or remove stored values',
  description:
    'Writes a key in the app (value), removes it (remove) or every key of the area (clear); answers what was there and, after a write, what is.',
  input: z.object({
    area: areaArg,
    key: keyArg.optional(),
    value: text(8_000_000, 'Text to write (IndexedDB: JSON).').optional(),
    remove: z.boolean().optional().describe('Remove the key.'),
    clear: z.boolean().optional().describe('Remove every key.'),
  }),
  output: z.object({
    before: KeyedValueSchema.or(z.object({ count: z.number(), size: z.number().optional() })),
    after: KeyedValueSchema.optional(),
    removed: z.number().optional(),
  }),
  annotations: change,
  defaultPermission: 'ask',
  describeChange: describeStorageChange,
  async handler(args, { instance, signal, surface }) {
    const { area, key, value } = args;
    const agent = surface !== 'ui';
    const mode = changeOf(args);
    if (mode === 'set') {
      const { before, after } = await instance.set({ area, key: key!, value: value!, maxChars: CHANGE_CHARS }, signal);
      return {
        before: answer(viewOf(area, before), agent, before.secret),
        after: answer(viewOf(area, after), agent, after.secret),
      };
    }
    const { removed, before, beforeCount, beforeSize } = await instance.remove(
      { area, key, clear: mode === 'clear', maxChars: CHANGE_CHARS },
      signal,
    );
    return {
      removed,
      before: before
        ? answer(viewOf(area, before), agent, before.secret)
        : { count: beforeCount ?? removed, ...(beforeSize !== undefined ? { size: beforeSize } : {}) },
    };
  },
});

export const storageTools = [listStorage, getValue, setValue];
