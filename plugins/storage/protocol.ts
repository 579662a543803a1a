import { z } from 'zod';
import { definePluginProtocol } from '../../shared/plugin-protocol.js';
import {
  MAX_KEY_CHARS,
  MAX_PAGE_KEYS,
  MAX_VALUE_CHARS,
  PREVIEW_CHARS,
  STORAGE_ID,
  STORAGE_VERSION,
} from './constants.js';

export * from './constants.js';

/**
 * The storage plugin's contract. The app answers what the host asks — the areas it has, a page of
 * keys, values, changes — and reports that an area changed (never the values: the host asks when it
 * needs them). Areas are named by a string the app gives and the host passes back:
 * `localStorage`, `sessionStorage`, `cookies`, `indexedDB/<database>/<store>`, `cacheStorage/<cache>`,
 * `asyncStorage`, `mmkv/<id>` and the names of the app's own adapters (`/` and `%` in a database,
 * store or cache name are written `%2F` and `%25`).
 *
 * Values travel as the app has them, bounded: text as text (the host parses JSON), other values
 * (IndexedDB records, MMKV numbers) as JSON with tagged objects `{ $: kind }` for what JSON cannot
 * say — `date`, `bigint`, `undefined`, `number` (NaN, ±Infinity), `map`, `set`, `binary` (Blob,
 * File, ArrayBuffer, typed arrays: `{ $: 'binary', cls, type?, size, head }`, head being the first
 * bytes in base64), `cut` (past the size bound) and `object` (an object with its own `$` key).
 */

const Area = z.string().min(1).max(2048);
const Key = z.string().max(MAX_KEY_CHARS + 1);
const Text = z.string().max(1000);

export const AreaKindSchema = z.enum([
  'localStorage',
  'sessionStorage',
  'cookies',
  'indexedDB',
  'cacheStorage',
  'asyncStorage',
  'mmkv',
  'adapter',
]);
export type AreaKind = z.infer<typeof AreaKindSchema>;

export const AreaSchema = z.object({
  area: Area.describe('The name to pass as area.'),
  kind: AreaKindSchema,
  count: z.number().int().min(0).optional().describe('Keys (records, cookies, cached requests).'),
  size: z.number().min(0).optional().describe('About the bytes its values take (text: its length).'),
  readOnly: z.boolean().optional().describe('The app does not let the inspector change it.'),
  secret: z.boolean().optional().describe('Its values are secrets (an encrypted store): hidden from AI agents.'),
  note: Text.optional().describe('What else to know: key path and indexes, what the page cannot see, encryption.'),
  error: Text.optional().describe('It could not be read, and why.'),
});
export type Area = z.infer<typeof AreaSchema>;

export const KeyInfoSchema = z.object({
  key: Key,
  size: z.number().min(0).optional(),
  /** The start of the value as text (JSON for structured values): for the window's table. */
  preview: z
    .string()
    .max(PREVIEW_CHARS + 1)
    .optional(),
  /** The preview is not the whole value. */
  previewCut: z.boolean().optional(),
  /** The key itself was longer than MAX_KEY_CHARS and is cut here. */
  keyCut: z.boolean().optional(),
});
export type KeyInfo = z.infer<typeof KeyInfoSchema>;

export const KeyPageSchema = z.object({
  area: Area,
  keys: z.array(KeyInfoSchema).max(MAX_PAGE_KEYS),
  /** Keys in the area. */
  total: z.number().int().min(0),
  /** About the bytes of all its values, when the app could count them without reading every one. */
  totalSize: z.number().min(0).optional(),
  /** Keys that start with the prefix asked for. */
  matched: z.number().int().min(0).optional(),
  /** More keys follow: ask again with `after` set to this (the last key of this page). */
  after: Key.optional(),
  /** The area's values are secrets: AI agents get no previews. */
  secret: z.boolean().optional(),
  note: Text.optional(),
});
export type KeyPage = z.infer<typeof KeyPageSchema>;

/** One value as the app read it. */
export const EntrySchema = z.object({
  key: Key,
  found: z.boolean(),
  size: z.number().min(0).optional(),
  /** A text value, or the slice of it from `offset`. */
  text: z
    .string()
    .max(MAX_VALUE_CHARS + 1)
    .optional(),
  offset: z.number().int().min(0).optional(),
  /** The whole text's length, when `text` is not all of it and it is known. */
  length: z.number().int().min(0).optional(),
  /** The text goes on past this slice. */
  more: z.boolean().optional(),
  /** A value that is not text, as tagged JSON (see above). */
  value: z.json().optional(),
  /** What else the app knows of it: a cookie's attributes, a cached response's status and headers. */
  meta: z.record(z.string(), z.json()).optional(),
  /** The area's values are secrets: AI agents get `[redacted]`. */
  secret: z.boolean().optional(),
  note: Text.optional(),
});
export type Entry = z.infer<typeof EntrySchema>;

export const AreaParamsSchema = z.object({ area: Area });

export const KeysParamsSchema = AreaParamsSchema.extend({
  prefix: z.string().max(MAX_KEY_CHARS).optional(),
  after: Key.optional(),
  limit: z.number().int().min(1).max(MAX_PAGE_KEYS),
});
export type KeysParams = z.infer<typeof KeysParamsSchema>;

export const GetParamsSchema = AreaParamsSchema.extend({
  key: Key,
  /** IndexedDB: the records from `key` to `to`, both included. */
  to: Key.optional(),
  /** With `to`: start after this key (the previous page's last). */
  after: Key.optional(),
  /** The most records of a range. */
  limit: z.number().int().min(1).max(MAX_PAGE_KEYS).optional(),
  /** A text value from this character on. */
  offset: z.number().int().min(0).optional(),
  /** Characters of text (or of tagged JSON) per value. */
  maxChars: z.number().int().min(100).max(MAX_VALUE_CHARS),
});
export type GetParams = z.infer<typeof GetParamsSchema>;

export const EntriesSchema = z.object({
  entries: z.array(EntrySchema).max(MAX_PAGE_KEYS),
  /** More records of the range follow: ask again with `after` set to this. */
  after: Key.optional(),
});
export type Entries = z.infer<typeof EntriesSchema>;

export const SetParamsSchema = AreaParamsSchema.extend({
  key: Key,
  value: z.string().max(8_000_000),
  maxChars: z.number().int().min(100).max(MAX_VALUE_CHARS),
});
export type SetParams = z.infer<typeof SetParamsSchema>;

export const ChangeSchema = z.object({
  before: EntrySchema,
  after: EntrySchema,
});
export type Change = z.infer<typeof ChangeSchema>;

export const RemoveParamsSchema = AreaParamsSchema.extend({
  /** The key to remove; without it, `clear` must be true. */
  key: Key.optional(),
  clear: z.boolean().optional(),
  maxChars: z.number().int().min(100).max(MAX_VALUE_CHARS),
});
export type RemoveParams = z.infer<typeof RemoveParamsSchema>;

export const RemovedSchema = z.object({
  /** Keys removed. */
  removed: z.number().int().min(0),
  /** The value removed (one key), or the area's count and size before it was cleared. */
  before: EntrySchema.optional(),
  beforeCount: z.number().int().min(0).optional(),
  beforeSize: z.number().min(0).optional(),
});
export type Removed = z.infer<typeof RemovedSchema>;

/** A key (or, without one, many keys of the area) changed in the app. */
export const ChangedSchema = z.object({
  changes: z.array(z.object({ area: Area, key: Key.optional() })).max(1000),
});
export type Changed = z.infer<typeof ChangedSchema>;

/** storage_get's answer for one value, as the host shapes it (the panel shows the same). */
export const ValueViewSchema = z.object({
  area: z.string(),
  key: z.string(),
  found: z.boolean(),
  size: z.number().optional(),
  type: z
    .enum(['json', 'text', 'value'])
    .optional()
    .describe('json: text that parses as JSON, in value; text: other text, in text; value: a stored structure.'),
  value: z.json().optional(),
  text: z.string().optional(),
  offset: z.number().optional(),
  length: z.number().optional().describe('The whole text, when text is a slice.'),
  meta: z.record(z.string(), z.json()).optional(),
  note: z.string().optional(),
  hidden: z.number().optional().describe('Values replaced by [redacted] for an AI agent.'),
});
export type ValueView = z.infer<typeof ValueViewSchema>;

export const storageProtocol = definePluginProtocol({
  id: STORAGE_ID,
  version: STORAGE_VERSION,
  toAgent: {
    requests: {
      areas: { params: z.object({}), result: z.object({ areas: z.array(AreaSchema).max(2000) }) },
      keys: { params: KeysParamsSchema, result: KeyPageSchema },
      get: { params: GetParamsSchema, result: EntriesSchema },
      set: { params: SetParamsSchema, result: ChangeSchema },
      remove: { params: RemoveParamsSchema, result: RemovedSchema },
    },
  },
  toHost: {
    notifications: { changed: ChangedSchema },
  },
  panel: {
    requests: {
      areas: { params: z.object({}), result: z.object({ areas: z.array(AreaSchema) }) },
      keys: {
        params: KeysParamsSchema.omit({ limit: true }).extend({ limit: z.number().int().min(1).max(500) }),
        result: KeyPageSchema,
      },
      get: {
        params: AreaParamsSchema.extend({ key: Key }),
        result: ValueViewSchema,
      },
      /** storage_get's structuredContent for an MCP client, for the same key (redacted). */
      agentView: {
        params: AreaParamsSchema.extend({ key: Key }),
        result: z.object({ answer: z.record(z.string(), z.unknown()) }),
      },
      set: { params: AreaParamsSchema.extend({ key: Key, value: z.string().max(8_000_000) }), result: ChangeSchema },
      remove: {
        params: AreaParamsSchema.extend({ key: Key.optional(), clear: z.boolean().optional() }),
        result: RemovedSchema,
      },
    },
    events: { changed: ChangedSchema },
  },
});
export type StorageProtocol = typeof storageProtocol;
