import { z } from 'zod';
import { definePluginProtocol } from '../../shared/plugin-protocol.js';
import { UI_PROTOCOL_ID, UI_PROTOCOL_VERSION } from './constants.js';

// The ui plugin's contract. The app describes what it shows as a flat list of nodes (depth-first,
// `d` for depth); its elements carry the app's own ids (numbers, valid for one page load). The
// inspector turns those into refs (`e12`) that stay the same for the same element during a load,
// and renders the outline (outline.ts).

const text = (max: number) => z.string().max(max);

/** One line of the outline: an element with a role, or a run of text (`role: 'text'`, the text in `name`). */
export const UiNodeSchema = z.object({
  /** Depth below the outline's root. */
  d: z.number().int().min(0).max(1000),
  /** The app's id of the element (for text, the element holding it). */
  id: z.number().int().positive().optional(),
  role: text(40),
  name: text(600).optional(),
  value: text(1200).optional(),
  /** The text inside an element whose only content is text (a list item's, a paragraph's). */
  text: text(600).optional(),
  /** A link's target (same-origin links as path). */
  url: text(2100).optional(),
  /** checked, mixed, disabled, expanded, collapsed, selected, focused, pressed, required, readonly, invalid, … */
  states: z.array(text(24)).max(16).optional(),
  /** A heading's level. */
  level: z.number().int().min(1).max(9).optional(),
  /** React Native's `testID` (or `nativeID`) of the element. */
  testId: text(200).optional(),
  /** Element children not shown (past the depth asked for). */
  hidden: z.number().int().min(0).optional(),
});
export type UiNode = z.infer<typeof UiNodeSchema>;

export const PageSchema = z.object({
  url: text(4000),
  title: text(600),
  readyState: z.enum(['loading', 'interactive', 'complete']),
});
export type PageInfo = z.infer<typeof PageSchema>;

/** Which element: the app's id, or (replays after a reload) the first visible one with this role and name. */
export const TargetSchema = z.object({
  id: z.number().int().positive().optional(),
  role: text(40).optional(),
  name: text(600).optional(),
});
export type Target = z.infer<typeof TargetSchema>;

export const SnapshotParamsSchema = z.object({
  /** The element to start from; the whole page without it. */
  root: z.number().int().positive().optional(),
  /** Only nodes whose name, value or text contain this (any case), with their ancestors and subtrees. */
  text: text(500).optional(),
  /** Levels shown below the root (or below each match). */
  depth: z.number().int().min(0).max(200).optional(),
  limit: z.number().int().min(1).max(20_000),
  /** Stop adding nodes past about this many characters of outline. */
  maxChars: z.number().int().min(100).max(1_000_000),
});
export type SnapshotParams = z.infer<typeof SnapshotParamsSchema>;

export const SnapshotResultSchema = z.object({
  page: PageSchema,
  nodes: z.array(UiNodeSchema).max(20_000),
  /** What was left out past `limit`/`maxChars`: elements not visited (about), or matches not shown. */
  more: z.number().int().min(0),
  /** With `text`: how many nodes matched. */
  matches: z.number().int().min(0).optional(),
  /** Time the app's thread spent, ms. */
  ms: z.number().min(0),
});
export type SnapshotResult = z.infer<typeof SnapshotResultSchema>;

export const ACTIONS = ['click', 'fill', 'press', 'select', 'check', 'uncheck', 'hover', 'scroll', 'focus'] as const;
export const ActionSchema = z.enum(ACTIONS);
export type Action = z.infer<typeof ActionSchema>;

export const ActParamsSchema = z.object({
  target: TargetSchema.optional(),
  action: ActionSchema,
  value: z.union([text(100_000), z.array(text(1000)).max(200)]).optional(),
  submit: z.boolean().optional(),
  /** How alert/confirm/prompt opened by the action are answered. */
  dialog: z.enum(['accept', 'dismiss']).optional(),
});
export type ActParams = z.infer<typeof ActParamsSchema>;

/** A line of an action's effect: added (+), removed (-) or changed (~). */
export const ChangeSchema = UiNodeSchema.extend({ op: z.enum(['+', '-', '~']) });
export type Change = z.infer<typeof ChangeSchema>;

export const DialogSchema = z.object({
  type: z.enum(['alert', 'confirm', 'prompt']),
  message: text(1000),
  answer: z.enum(['accepted', 'dismissed']),
});
export type Dialog = z.infer<typeof DialogSchema>;

export const ActResultSchema = z.object({
  /** Refused before any event was sent: why, and the element in the way. */
  refused: z.object({ reason: text(2000), by: UiNodeSchema.optional(), within: UiNodeSchema.optional() }).optional(),
  /** The app's clock when the first event was sent. */
  startedAt: z.number(),
  /** The element acted on, as it is now. */
  target: UiNodeSchema.optional(),
  /** Where the app ends up scrolled, for `scroll`. */
  scroll: z.object({ x: z.number(), y: z.number() }).optional(),
  urlBefore: text(4000),
  url: text(4000),
  changes: z.array(ChangeSchema).max(200),
  moreChanges: z.number().int().min(0),
  focused: UiNodeSchema.optional(),
  dialogs: z.array(DialogSchema).max(50),
  /** The page began to unload (a navigation) during the action. */
  unloading: z.boolean().optional(),
  /** Something the agent should know (the value an input kept, a state that did not change). */
  note: text(1000).optional(),
  /** Time the app's thread spent on the act (events, the app's handlers, describing), ms. */
  ms: z.number().min(0).optional(),
});
export type ActResult = z.infer<typeof ActResultSchema>;

export const SettleResultSchema = ActResultSchema.pick({ changes: true, moreChanges: true, dialogs: true, url: true });
export type SettleResult = z.infer<typeof SettleResultSchema>;

export const WaitParamsSchema = z.object({
  target: TargetSchema.optional(),
  text: text(500).optional(),
  gone: z.boolean(),
  timeoutMs: z.number().int().min(0).max(600_000),
});
export type WaitParams = z.infer<typeof WaitParamsSchema>;

export const WaitResultSchema = z.object({
  met: z.boolean(),
  ms: z.number().min(0),
  /** The element found (waiting for it to appear). */
  node: UiNodeSchema.optional(),
  /** On timeout: what the page showed, in short. */
  seen: text(4000).optional(),
});
export type WaitResult = z.infer<typeof WaitResultSchema>;

export const EvaluateParamsSchema = z.object({
  expression: text(100_000),
  timeoutMs: z.number().int().min(1).max(600_000),
});

export const EvaluateResultSchema = z.object({
  /** The value as agent/serialize.ts makes it (SerializedValue). */
  value: z.json().optional(),
  /** What it threw (or its promise rejected with), serialized the same way. */
  thrown: z.json().optional(),
  /** The promise did not settle in time (it still runs in the app). */
  timedOut: z.boolean().optional(),
  /** The code could not be compiled (a syntax error, or the page's CSP forbids eval). */
  compileError: text(2000).optional(),
  ms: z.number().min(0),
});
export type EvaluateResult = z.infer<typeof EvaluateResultSchema>;

export const ScreenshotSchema = z.object({
  base64: z.string().min(1),
  mimeType: z.enum(['image/png', 'image/jpeg', 'image/webp']),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  /** A full page taller than what was captured: its whole height in CSS pixels. */
  pageHeight: z.number().int().positive().optional(),
});
export type Screenshot = z.infer<typeof ScreenshotSchema>;

export const NavigateParamsSchema = z.object({ to: text(4000) });
export const NavigateResultSchema = z.object({
  from: text(4000),
  /** The URL resolved against the page (absent for reload, back, forward). */
  url: text(4000).optional(),
  /** Only the fragment changes: no new load follows. */
  sameDocument: z.boolean().optional(),
});
export type NavigateResult = z.infer<typeof NavigateResultSchema>;

/** What the app can show: a DOM (pages, Electron renderers), nothing (Node), or a source it plugged in. */
export const RuntimeSchema = z.enum(['dom', 'none', 'custom']);

/** The agent part reports the page on connect, at DOMContentLoaded and load, and on history changes. */
export const PageStateSchema = PageSchema.extend({ runtime: RuntimeSchema });
export type PageState = z.infer<typeof PageStateSchema>;

// The log of actions the agent (or the person, replaying) took, for the panel and the timeline.
export const ActionEntrySchema = z.object({
  seq: z.number().int().min(0),
  time: z.number(),
  end: z.number().optional(),
  tool: z.enum(['act', 'navigate', 'evaluate']),
  /** One line: `click button "Add" e4`, `reload`, `evaluate document.title`. */
  summary: text(400),
  /** The tool's arguments, for a replay; with the target's role and name for acts. */
  args: z.record(z.string(), z.json()),
  target: z.object({ role: text(40), name: text(600).optional() }).optional(),
  ok: z.boolean(),
  /** The outcome in one or a few lines. */
  result: text(4000),
  surface: text(20),
  /** The page load the action ran in. */
  load: z.number().int().optional(),
});
export type ActionEntry = z.infer<typeof ActionEntrySchema>;

/** An outline for the window: refs resolved, as the MCP answer shows it. */
export const PanelNodeSchema = UiNodeSchema.omit({ id: true }).extend({ ref: text(20).optional() });
export type PanelNode = z.infer<typeof PanelNodeSchema>;

export const uiProtocol = definePluginProtocol({
  id: UI_PROTOCOL_ID,
  version: UI_PROTOCOL_VERSION,
  toAgent: {
    requests: {
      snapshot: { params: SnapshotParamsSchema, result: SnapshotResultSchema },
      act: { params: ActParamsSchema, result: ActResultSchema },
      /** The changes since the last act, once what it started is done; closes that act. */
      settle: { params: z.object({}), result: SettleResultSchema },
      navigate: { params: NavigateParamsSchema, result: NavigateResultSchema },
      waitFor: { params: WaitParamsSchema, result: WaitResultSchema },
      evaluate: { params: EvaluateParamsSchema, result: EvaluateResultSchema },
      screenshot: {
        params: z.object({ id: z.number().int().positive().optional(), fullPage: z.boolean().optional() }),
        result: ScreenshotSchema,
      },
      /** Turns the "page changed" notifications on or off (on while a window shows the outline). */
      watch: { params: z.object({ on: z.boolean() }), result: z.object({}) },
    },
    notifications: {
      /** The last act started requests: keep watching the page for it (and answering its dialogs) until `settle`. */
      hold: z.object({}),
      /** Outlines one element in the page, as DevTools' inspect does; without `id`, removes it. */
      highlight: z.object({ id: z.number().int().positive().optional() }),
    },
  },
  toHost: {
    notifications: {
      page: PageStateSchema,
      /** While watched: the page changed (at most a few times a second). */
      changed: z.object({}),
    },
  },
  panel: {
    requests: {
      snapshot: {
        params: z.object({ ref: text(20).optional(), text: text(500).optional(), depth: z.number().int().optional() }),
        result: z.object({
          page: PageSchema.extend({ load: z.number().int().optional() }),
          nodes: z.array(PanelNodeSchema),
          more: z.number().int(),
          runtime: RuntimeSchema.optional(),
        }),
      },
      highlight: { params: z.object({ ref: text(20).optional() }), result: z.object({}) },
      /** The window shows the outline: keep the page's change notifications on (renew every few seconds). */
      watch: { params: z.object({}), result: z.object({}) },
      actions: { params: z.object({}), result: z.object({ entries: z.array(ActionEntrySchema) }) },
      replay: { params: z.object({ seq: z.number().int().min(0) }), result: z.object({ entry: ActionEntrySchema }) },
    },
    events: {
      changed: z.object({}),
      action: ActionEntrySchema,
      page: PageStateSchema.extend({ load: z.number().int().optional() }),
    },
  },
});
export type UiProtocol = typeof uiProtocol;
