import { z } from 'zod';
import { type TimelineEntry, TimelineEntrySchema } from './timeline.js';

// inspector_debug_bundle: the one call an agent makes when "it's broken". The core builds it on the
// session's timeline (requests, console messages, page loads, merged by time) plus what each plugin
// contributes through `HostPluginInstance.debugBundle` (the console its error groups, the network its
// mock rules in force); no plugin's internals reach the core.

/** An error group as a plugin contributes it (the console: grouped by message and top frame). */
export const DebugErrorSchema = z.object({
  /** The plugin that saw it, and its own id for the latest occurrence (console_get_message takes a console seq). */
  plugin: z.string(),
  ref: z.string(),
  text: z.string(),
  kind: z.string(),
  site: z.string().optional(),
  count: z.number().int(),
  firstSeen: z.number(),
  lastSeen: z.number(),
});
export type DebugError = z.infer<typeof DebugErrorSchema>;

/** What a plugin adds to the bundle: its error groups, and named sections of what is in force (bounded by the plugin). */
export interface DebugContribution {
  errors?: DebugError[];
  sections?: Record<string, unknown>;
}

export interface DebugBundleQuery {
  /** Only what happened at or after this time (ms since the epoch). */
  since?: number;
}

/** What the core merges: the timeline, and every plugin's contribution. */
export interface DebugBundleSources {
  timeline(query: { since?: number; until?: number; plugins?: readonly string[]; limit: number }): {
    entries: TimelineEntry[];
    more: number;
  };
  contributions: { plugin: string; contribution: DebugContribution }[];
}

/**
 * The bundle's bound as compact JSON: its text content (indented JSON, about 15% more) then stays
 * under DESIGN.md's 25 KB for an argument-less answer too.
 */
export const DEBUG_BUNDLE_MAX_BYTES = 21 * 1024;
/** Around an error: what happened this long before its last occurrence, and this long after. */
export const BEFORE_MS = 10_000;
export const AFTER_MS = 2_000;
/** A request this long or longer is slow. */
export const SLOW_MS = 1_000;

const MAX_GROUPS = 10;
const MAX_REQUESTS_PER_GROUP = 6;
const MAX_CONSOLE_PER_GROUP = 8;
const MAX_LOADS = 10;
const MAX_FAILED = 15;

const Entry = TimelineEntrySchema.omit({ plugin: true });

export const DebugBundleSchema = z.object({
  sessionId: z.string(),
  app: z.string(),
  active: z.boolean().describe('The app is connected now.'),
  since: z.number().optional(),
  errors: z
    .array(
      DebugErrorSchema.extend({
        requests: z.array(Entry).describe('Failed (4xx/5xx, network errors) and slow requests around it in time.'),
        console: z.array(Entry).describe('Console lines around it in time (its own included).'),
      }),
    )
    .describe('Most recent first; ref is the seq console_get_message takes for the stack.'),
  moreErrors: z.number().int().describe('Error groups left out (console_list_errors has them).'),
  failedRequests: z
    .array(Entry)
    .describe('Failed and slow requests of the range, newest first; ref is what network_get_transaction takes.'),
  moreFailedRequests: z.number().int(),
  loads: z.array(Entry).describe('Page loads and app starts, newest first.'),
  sections: z.record(z.string(), z.unknown()).describe("Plugins' state in force, e.g. network.mocks: the mock rules."),
  trimmed: z.boolean().optional().describe('Lists were shortened to keep the answer under 25 KB.'),
});
export type DebugBundle = z.infer<typeof DebugBundleSchema>;

type Bare = z.infer<typeof Entry>;
const bare = ({ plugin: _plugin, ...rest }: TimelineEntry): Bare => rest;

function failedOrSlow(entry: TimelineEntry): boolean {
  if (entry.plugin !== 'network') return false;
  return entry.level === 'error' || (entry.end !== undefined && entry.end - entry.time >= SLOW_MS);
}

/** The bundle of one session, within DEBUG_BUNDLE_MAX_BYTES. */
export function buildDebugBundle(
  session: { id: string; app: string; active: boolean },
  query: DebugBundleQuery,
  sources: DebugBundleSources,
): DebugBundle {
  const { since } = query;
  const groups = sources.contributions
    .flatMap(({ contribution }) => contribution.errors ?? [])
    .filter((e) => since === undefined || e.lastSeen >= since)
    .sort((a, b) => b.lastSeen - a.lastSeen);
  const errors = groups.slice(0, MAX_GROUPS).map((group) => {
    const around = sources.timeline({
      since: group.lastSeen - BEFORE_MS,
      until: group.lastSeen + AFTER_MS,
      limit: 500,
    }).entries;
    const byNearness = (a: TimelineEntry, b: TimelineEntry) =>
      Math.abs(a.time - group.lastSeen) - Math.abs(b.time - group.lastSeen);
    const requests = around.filter(failedOrSlow).sort(byNearness).slice(0, MAX_REQUESTS_PER_GROUP);
    const lines = around
      .filter((e) => e.plugin === 'console')
      .sort(byNearness)
      .slice(0, MAX_CONSOLE_PER_GROUP);
    const byTime = (a: TimelineEntry, b: TimelineEntry) => a.time - b.time;
    return { ...group, requests: requests.sort(byTime).map(bare), console: lines.sort(byTime).map(bare) };
  });
  const network = sources.timeline({ since, plugins: ['network'], limit: 5000 }).entries.filter(failedOrSlow);
  const loads = sources.timeline({ since, plugins: ['inspector'], limit: 1000 }).entries;
  const sections: Record<string, unknown> = {};
  for (const { plugin, contribution } of sources.contributions) {
    for (const [name, value] of Object.entries(contribution.sections ?? {})) sections[`${plugin}.${name}`] = value;
  }
  const bundle: DebugBundle = {
    sessionId: session.id,
    app: session.app,
    active: session.active,
    ...(since !== undefined ? { since } : {}),
    errors,
    moreErrors: groups.length - errors.length,
    failedRequests: network.slice(-MAX_FAILED).reverse().map(bare),
    moreFailedRequests: Math.max(0, network.length - MAX_FAILED),
    loads: loads.slice(-MAX_LOADS).reverse().map(bare),
    sections,
  };
  return withinBudget(bundle);
}

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/** Shortens the longest lists (the oldest errors first) until the bundle fits. */
function withinBudget(bundle: DebugBundle): DebugBundle {
  if (bytes(bundle) <= DEBUG_BUNDLE_MAX_BYTES) return bundle;
  const out: DebugBundle = { ...bundle, errors: bundle.errors.map((e) => ({ ...e })), trimmed: true };
  for (let round = 0; round < 64 && bytes(out) > DEBUG_BUNDLE_MAX_BYTES; round++) {
    for (const e of out.errors) {
      if (e.console.length > 2) e.console = e.console.slice(1, -1);
      if (e.requests.length > 2) e.requests = e.requests.slice(0, -1);
    }
    if (out.failedRequests.length > 3) {
      const drop = Math.ceil(out.failedRequests.length / 3);
      out.failedRequests = out.failedRequests.slice(0, -drop);
      out.moreFailedRequests += drop;
    }
    if (out.loads.length > 3) out.loads = out.loads.slice(0, 3);
    if (round > 2 && out.errors.length > 1) {
      out.errors = out.errors.slice(0, -1);
      out.moreErrors++;
    }
    if (round > 8) {
      for (const [key, value] of Object.entries(out.sections)) {
        if (bytes(value) > 2048) out.sections[key] = `${bytes(value)} bytes; its plugin's tools have it in full`;
      }
    }
  }
  return out;
}

/** One line: the errors, the failed requests, the loads, what to call next. */
export function summarizeDebugBundle(b: DebugBundle): string {
  const top = b.errors[0];
  const errors = b.errors.length + b.moreErrors;
  const parts = [
    errors === 0
      ? 'no errors'
      : `${errors} error group${errors > 1 ? 's' : ''} (latest: ${top ? `${top.text.slice(0, 80)}${top.count > 1 ? ` ×${top.count}` : ''}` : '…'})`,
    `${b.failedRequests.length + b.moreFailedRequests} failed or slow requests`,
    `${b.loads.length} loads`,
  ];
  const next = top
    ? `console_get_message {seq: ${top.ref}} has the stack`
    : b.failedRequests[0]
      ? `network_get_transaction {id: "${b.failedRequests[0].ref}"} has the failed request`
      : 'nothing wrong was captured: reproduce the problem, then call again';
  return `${b.app}: ${parts.join(', ')}. Next: ${next}`;
}
