import { z } from 'zod';
import { definePluginProtocol } from '../../shared/plugin-protocol.js';

// What the react plugin's parts say to each other. The tools' arguments are the agent's request
// params (one schema, one set of descriptions); what the app answers is bounded here, since an app
// may send anything.

const name = z.string().max(200);
const text = z.string().max(2000);
/** A value as agent/serialize.ts makes it (shared/serialized-value.ts). */
const value = z.json();

export const TreeParamsSchema = z.object({
  id: z.string().optional().describe('Start at this component.'),
  name: z.string().optional().describe('Name contains this (any case).'),
  text: z.string().optional().describe('Renders this text.'),
  depth: z.number().int().min(1).default(40).describe('Levels.'),
  limit: z.number().int().min(1).max(2000).default(150).describe('Lines.'),
  hosts: z.boolean().default(false).describe('Include host elements.'),
});
export type TreeParams = z.output<typeof TreeParamsSchema>;

/**
 * One line of the tree: depth, name, id; key, badge (memo, forwardRef, class, suspended), renders
 * counted, host element (h) and its text (t).
 */
export const TreeNodeSchema = z.object({
  d: z.number().int().min(0).max(10_000),
  n: name,
  id: z.string().max(40),
  k: name.optional(),
  b: z.string().max(40).optional(),
  r: z.number().int().min(0).optional(),
  h: z.literal(true).optional(),
  t: z.string().max(200).optional(),
});
export type TreeNode = z.infer<typeof TreeNodeSchema>;

export const RendererSchema = z.object({
  id: z.number().int(),
  version: z.string().max(100).optional(),
  package: z.string().max(100).optional(),
  build: z.enum(['development', 'production', 'unknown']),
});

/** How the app's React is seen; `problem` says what is missing and how to fix it. */
export const StatusSchema = z.object({
  hook: z.enum(['installed', 'chained', 'read-only', 'disabled']),
  renderers: z.array(RendererSchema).max(20),
  roots: z.number().int().min(0),
  commits: z.number().int().min(0),
  /** Roots found in the page that never reached the hook: React loaded before Porthole. */
  late: z.boolean().optional(),
  problem: text.optional(),
});
export type Status = z.infer<typeof StatusSchema>;

export const TreeResultSchema = z.object({
  nodes: z.array(TreeNodeSchema).max(2000),
  /** Lines past `limit`. */
  more: z.number().int().min(0),
  /** Lines below `depth`. */
  deeper: z.number().int().min(0),
  status: StatusSchema,
});
export type TreeResult = z.infer<typeof TreeResultSchema>;

export const InspectParamsSchema = z.object({
  id: z.string().optional().describe('From react_tree or react_renders.'),
  name: z.string().optional().describe('Or the first with this exact name.'),
  highlight: z.boolean().default(false).describe('Outline it in the page for 2 s.'),
  set: z
    .object({
      path: z.array(z.string()).min(2).max(20).describe('props|hooks|state, name|index, …'),
      value: z.unknown().describe('JSON.'),
    })
    .optional()
    .describe('Write first (asks the user).'),
});
export type InspectParams = z.output<typeof InspectParamsSchema>;

const ref = z.object({ id: z.string().max(40).optional(), name });
const place = z.string().max(2000);

export const InspectResultSchema = z.object({
  id: z.string().max(40),
  name,
  kind: z.string().max(40),
  key: name.optional(),
  renders: z.number().int().min(0),
  props: z.record(z.string(), value),
  state: value.optional(),
  hooks: z
    .array(z.object({ kind: z.string().max(40), value: value.optional(), deps: value.optional() }))
    .max(1000)
    .optional(),
  contexts: z.array(z.object({ name, value })).max(100).optional(),
  owners: z.array(ref).max(20),
  source: place.optional(),
  stack: z.array(place).max(10).optional(),
  hosts: z.array(z.string().max(500)).max(20).optional(),
  others: z.array(ref).max(20).optional(),
  highlighted: z.union([z.boolean(), text]).optional(),
  notes: z.array(text).max(10).optional(),
});
export type InspectResult = z.infer<typeof InspectResultSchema>;

export const RendersParamsSchema = z.object({
  since: z.number().int().min(0).optional().describe('Only commits after this one.'),
  name: z.string().optional().describe('Name contains this.'),
  limit: z.number().int().min(1).max(500).default(30).describe('Most renders first.'),
});
export type RendersParams = z.output<typeof RendersParamsSchema>;

export const RenderSummarySchema = z.object({
  id: z.string().max(40),
  name,
  renders: z.number().int().min(0),
  /** Self render time in ms, summed (profiling and development builds). */
  ms: z.number().optional(),
  /** Why it rendered: reason → times (mount, props.<key>, hook #<i> <kind>, state, context <name>, parent). */
  why: z.record(z.string().max(300), z.number().int()).refine((r) => Object.keys(r).length <= 64),
});
export type RenderSummary = z.infer<typeof RenderSummarySchema>;

export const RendersResultSchema = z.object({
  commit: z.number().int().min(0),
  commits: z.number().int().min(0),
  components: z.array(RenderSummarySchema).max(500),
  more: z.number().int().min(0),
  /** Renders recorded before the oldest one kept were dropped. */
  dropped: z.number().int().min(0).optional(),
  status: StatusSchema,
});
export type RendersResult = z.infer<typeof RendersResultSchema>;

export const CommitsSchema = z.object({ commit: z.number().int().min(0), renders: z.number().int().min(0) });

const req = <P extends z.ZodType, R extends z.ZodType>(params: P, result: R) => ({ params, result });

export const reactProtocol = definePluginProtocol({
  id: 'react',
  version: '1.0.0',
  toAgent: {
    requests: {
      tree: req(TreeParamsSchema, TreeResultSchema),
      inspect: req(InspectParamsSchema, InspectResultSchema),
      renders: req(RendersParamsSchema, RendersResultSchema),
    },
  },
  toHost: {
    notifications: { status: StatusSchema, commits: CommitsSchema },
  },
  panel: {
    requests: {
      tree: req(TreeParamsSchema, TreeResultSchema),
      inspect: req(InspectParamsSchema, InspectResultSchema),
      renders: req(RendersParamsSchema, RendersResultSchema),
      status: req(z.object({}), z.object({ status: StatusSchema.optional() })),
    },
    events: { status: StatusSchema, commits: CommitsSchema },
  },
});
