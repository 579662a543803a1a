import { z } from 'zod';
import { definePluginProtocol } from '../../shared/plugin-protocol.js';

export type { SerializedValue } from '../../shared/serialized-value.js';

// The state plugin's contract. The agent speaks the Redux DevTools extension API to the app's stores
// (`__REDUX_DEVTOOLS_EXTENSION__`: connect/init/send/subscribe, and the store enhancer) and watches a
// TanStack QueryClient the app hands it; it sends what happened in batches. Values travel as the
// agent serialized them (SerializedValue: JSON, with `{ $: kind }` tags for what JSON cannot hold).

const id = z.string().min(1).max(64);
/** A SerializedValue: JSON by construction, read defensively. */
const Value = z.unknown();

/** What a store lets the inspector do, from the devtools API's `features` and what its library handles. */
export const CanSchema = z.object({ dispatch: z.boolean(), set: z.boolean(), jump: z.boolean() });

export const StoreWireSchema = z.object({
  id,
  name: z.string().max(200),
  /** redux (the store enhancer), zustand, or what else called connect(): a guess when the app did not say. */
  library: z.string().max(40),
  createdAt: z.number(),
  can: CanSchema,
  /** Action creators the app declared (`name(arg, …)`), dispatchable by type. */
  creators: z.array(z.string().max(200)).max(100).optional(),
  /** Created before the state plugin joined connect(): its actions since then were kept (up to maxAge). */
  early: z.boolean().optional(),
  /** The store called unsubscribe() (e.g. Zustand's devtools.cleanup()). */
  closed: z.boolean().optional(),
  /** Said about this store: a second store with the same name, options it ignores. */
  note: z.string().max(500).optional(),
});
export type StoreWire = z.infer<typeof StoreWireSchema>;

/** One change between two states: at `path`, `before` → `after` (absent: the key was added / removed). */
export const ChangeSchema = z.object({
  path: z.string().max(2000),
  before: Value.optional(),
  after: Value.optional(),
});
export type Change = z.infer<typeof ChangeSchema>;

/** `init` a state sent with init(), `jump`/`set` a state the inspector put in, `error` a reducer that threw or error(). */
export const ActionKindSchema = z.enum(['action', 'init', 'jump', 'set', 'error']);

export const ActionWireSchema = z.object({
  store: id,
  /** Per store: 0 is the first state, then one per action the app sent. */
  seq: z.number().int().min(0),
  time: z.number(),
  type: z.string().max(300),
  kind: ActionKindSchema.default('action'),
  /** The action (type, payload, meta…), cut small. */
  action: Value.optional(),
  /** What changed since the previous state, at most 20 paths (none: left out). */
  diff: z.array(ChangeSchema).max(50).default([]),
  /** Changes not itemized in `diff`. */
  more: z.number().int().min(0).optional(),
  /** The comparison stopped early (a very large change): paths listed may hold more changes below them. */
  cut: z.boolean().optional(),
  error: z.string().max(2000).optional(),
  /** This diff also covers this many actions before it, sent without diffs of their own (a burst). */
  span: z.number().int().min(1).optional(),
  /**
   * (1.1) This entry also stands for the store's next `repeat` actions (seq + 1 … seq + repeat), each
   * of the same type and time, with no payload, diff or state of its own: a burst's actions sent by
   * type alone, as one entry. The inspector lists each of them.
   */
  repeat: z.number().int().min(1).max(100_000).optional(),
});
export type ActionWire = z.infer<typeof ActionWireSchema>;
/** An action as the agent sends it (`kind` and an empty `diff` left out). */
export type ActionSent = z.input<typeof ActionWireSchema>;

export const QueryStatusSchema = z.enum(['pending', 'error', 'success']);
export const FetchStatusSchema = z.enum(['fetching', 'paused', 'idle']);

export const QueryWireSchema = z.object({
  hash: z.string().max(4000),
  key: Value,
  status: QueryStatusSchema,
  fetchStatus: FetchStatusSchema,
  dataUpdatedAt: z.number(),
  errorUpdatedAt: z.number(),
  error: z.string().max(2000).optional(),
  observers: z.number().int().min(0),
  stale: z.boolean(),
  invalidated: z.boolean(),
  updates: z.number().int().min(0),
  failures: z.number().int().min(0),
});
export type QueryWire = z.infer<typeof QueryWireSchema>;

export const SizeSchema = z.object({
  store: id,
  bytes: z.number().min(0),
  /** The estimate stopped at its budget: the state holds at least this much. */
  atLeast: z.boolean().optional(),
});

/**
 * One batch from the agent. `run` names this load of the app (a page reload starts a new run, with
 * new store ids); `full` marks the complete list of stores (and queries), sent on every connection.
 * Actions and queries are checked one by one by the host (a bad one is counted, not the batch).
 */
export const BatchSchema = z.object({
  run: z.string().max(40),
  full: z.boolean().optional(),
  stores: z.array(StoreWireSchema).max(1000).optional(),
  actions: z.array(z.unknown()).max(5000).optional(),
  sizes: z.array(SizeSchema).max(1000).optional(),
  /** Per store id: actions the agent dropped since the last batch (more were waiting than it keeps). */
  dropped: z.record(z.string().max(64), z.number().int().min(0)).optional(),
  queries: z.array(z.unknown()).max(5000).optional(),
  removedQueries: z.array(z.string().max(4000)).max(5000).optional(),
});
export type Batch = z.infer<typeof BatchSchema>;

/** What to read: a store's state (`store`) or a query's data (`query`: its hash or its key), at `path`. */
export const ReadSchema = z.object({
  store: id.optional(),
  query: Value.optional(),
  path: z.string().max(2000).default(''),
  /** Skip this many items (array, Map, Set) or keys (object) of the value at `path`. */
  offset: z.number().int().min(0).default(0),
  maxBytes: z.number().int().min(200).max(4_000_000).default(20_000),
});
export type Read = z.infer<typeof ReadSchema>;

export const ReadResultSchema = z.object({
  /** The path as the agent resolved it (`a.b[2]`). */
  path: z.string(),
  value: Value,
  /** Items or keys in the value at `path`, when it is a collection. */
  size: z.number().optional(),
  offset: z.number().optional(),
  /** For a query: its summary. */
  query: Value.optional(),
});
export type ReadResult = z.infer<typeof ReadResultSchema>;

export const ChangeModeSchema = z.enum(['dispatch', 'set', 'jump', 'invalidate', 'refetch']);
export type ChangeMode = z.infer<typeof ChangeModeSchema>;

export const ChangeRequestSchema = z.object({
  store: id.optional(),
  mode: ChangeModeSchema,
  /** dispatch: the action; set: the state to merge; jump: the seq; invalidate/refetch: a query key (prefix). */
  value: z.unknown().optional(),
});
export type ChangeRequest = z.infer<typeof ChangeRequestSchema>;

export const ChangeResultSchema = z.object({
  /** The seqs the change recorded in the store (from..to), if any. */
  from: z.number().int().optional(),
  to: z.number().int().optional(),
  /** invalidate / refetch: the queries matched. */
  queries: z.number().int().optional(),
  note: z.string().optional(),
});
export type ChangeResult = z.infer<typeof ChangeResultSchema>;

export const stateWire = definePluginProtocol({
  id: 'state',
  version: '1.1.0',
  toAgent: {
    requests: {
      read: { params: ReadSchema, result: ReadResultSchema },
      change: { params: ChangeRequestSchema, result: ChangeResultSchema },
    },
  },
  toHost: { notifications: { batch: BatchSchema } },
});

// What the host keeps and shows -------------------------------------------------------------------

export const StoreViewSchema = StoreWireSchema.extend({
  /** Connected now, in the app's current run. */
  active: z.boolean(),
  /** Actions the inspector holds for it, and the newest seq. */
  actions: z.number().int(),
  latest: z.number().int(),
  size: z.number().optional(),
  sizeAtLeast: z.boolean().optional(),
  /** Actions the app dropped (too many waiting) or the inspector dropped (its budget). */
  dropped: z.number().int(),
});
export type StoreView = z.infer<typeof StoreViewSchema>;

export const ActionViewSchema = ActionWireSchema.omit({ repeat: true }).extend({ kind: ActionKindSchema });
export type ActionView = z.infer<typeof ActionViewSchema>;

/**
 * Redaction for AI agents (the window shows everything): dotted paths from the root (`auth.user.ssn`,
 * array items add no part) and key names hidden at any depth, beside the default secret names
 * (password, token, secret, apiKey, …) that always apply.
 */
export const RedactionRulesSchema = z.object({
  paths: z.array(z.string().trim().min(1).max(500)).max(200),
  keys: z.array(z.string().trim().min(1).max(200)).max(200),
});
export type RedactionRules = z.infer<typeof RedactionRulesSchema>;
export const DEFAULT_RULES: RedactionRules = { paths: [], keys: [] };

export const StoresAnswerSchema = z.object({
  stores: z.array(StoreViewSchema),
  queries: z.number().int(),
  /** Why a store the app has may not be listed, when none or few are. */
  hint: z.string().optional(),
});

export const stateProtocol = definePluginProtocol({
  ...stateWire,
  panel: {
    requests: {
      stores: { params: z.object({}), result: StoresAnswerSchema },
      actions: {
        params: z.object({
          store: id,
          afterSeq: z.number().int().optional(),
          limit: z.number().int().min(1).max(5000),
        }),
        result: z.object({ actions: z.array(ActionViewSchema), hasMore: z.boolean() }),
      },
      read: { params: ReadSchema, result: ReadResultSchema },
      change: { params: ChangeRequestSchema, result: ChangeResultSchema },
      queries: { params: z.object({}), result: z.object({ queries: z.array(QueryWireSchema) }) },
      /** What state_get answers an MCP client for this read, beside the rules. */
      agentView: {
        params: ReadSchema,
        result: z.object({ rules: RedactionRulesSchema, result: z.record(z.string(), z.unknown()) }),
      },
      rules: { params: z.object({}), result: RedactionRulesSchema },
      setRules: { params: RedactionRulesSchema, result: RedactionRulesSchema },
    },
    events: {
      stores: z.object({ stores: z.array(StoreViewSchema) }),
      actions: z.object({ actions: z.array(ActionViewSchema) }),
      queries: z.object({ queries: z.array(QueryWireSchema), removed: z.array(z.string()) }),
      rules: RedactionRulesSchema,
    },
  },
});
export type StateProtocol = typeof stateProtocol;
export type StateWire = typeof stateWire;
