import { z } from 'zod';
import { definePluginTool } from '../../../shared/tool.js';
import { ACTIONS } from '../protocol.js';
import type { UiHost } from './ui-host.js';

// The ui plugin's MCP tools. Answers are text (the outline, what an action changed), except
// ui_evaluate's value (JSON) and ui_screenshot's image. tools/list pays for every word here.

const tool = definePluginTool<UiHost>();
const ref = z.string().max(20);
const timeout = (ms: number) => z.number().int().min(100).max(120_000).default(ms).describe('ms');

export const uiSnapshot = tool({
  name: 'ui_snapshot',
  title: "Outline the app's UI",
  description:
    'What the page shows, one line per element: role, "name", ref (e12), states, value, -> link, text. Refs (for ui_act) last until a reload.',
  input: z.object({
    ref: ref.optional().describe('Only this element and what it holds.'),
    text: z.string().max(500).optional().describe('Only lines with this text, and their ancestors.'),
    depth: z.number().int().min(0).max(200).optional().describe('Levels shown.'),
    limit: z.number().int().min(1).max(5000).optional().describe('Most lines; default fits 12 KB.'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { instance, signal }) => instance.snapshot(args, signal),
});

export const uiAct = tool({
  name: 'ui_act',
  title: 'Act on the UI',
  description:
    'Acts as a person would (real event order). Answers what changed: outline lines (+ added, - removed, ~ changed), requests, console errors, dialogs, URL.',
  input: z.object({
    ref: ref.optional().describe('From ui_snapshot.'),
    action: z.enum(ACTIONS).describe('What to do.'),
    value: z
      .union([z.string().max(100_000), z.array(z.string().max(1000)).max(200)])
      .optional()
      .describe('fill: text; press: key ("Enter", "Control+a"); select: options; scroll: up/down/top/bottom.'),
    submit: z.boolean().optional().describe('fill, then Enter.'),
    dialog: z.enum(['accept', 'dismiss']).optional().describe('alert/confirm/prompt answer.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  describeChange: ({ action, ref, value }) =>
    `${action}${ref ? ` ${ref}` : ''}${value !== undefined ? ` ${JSON.stringify(value).slice(0, 200)}` : ''} in the app`,
  handler: (args, { instance, signal, client, surface }) => instance.act(args, client?.name ?? surface, signal),
});

export const uiNavigate = tool({
  name: 'ui_navigate',
  title: 'Navigate the page',
  description:
    'Reloads, goes back/forward or to a same-origin URL; waits for the load and answers its requests and console errors.',
  input: z.object({
    to: z.string().min(1).max(4000).describe('reload, back, forward, or a URL.'),
    timeoutMs: timeout(15_000),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  describeChange: ({ to }) => (to === 'reload' ? 'Reload the page' : `Navigate the page: ${to.slice(0, 300)}`),
  handler: ({ to, timeoutMs }, { instance, signal, client, surface }) =>
    instance.navigate(to, timeoutMs, client?.name ?? surface, signal),
});

export const uiWaitFor = tool({
  name: 'ui_wait_for',
  title: 'Wait for the app',
  description:
    'Waits (one of) until text or ref appears or goes, a request completes, or the network is idle, since the last act. On timeout, says what it saw.',
  input: z.object({
    text: z.string().min(1).max(500).optional().describe('Text shown.'),
    ref: ref.optional().describe('Element.'),
    gone: z.boolean().optional().describe('Until it goes.'),
    request: z.string().min(1).max(500).optional().describe('Part of "METHOD URL".'),
    networkIdle: z.boolean().optional().describe('No pending request.'),
    timeoutMs: timeout(10_000),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  handler: (args, { instance, signal }) => instance.waitFor(args, signal),
});

export const uiEvaluate = tool({
  name: 'ui_evaluate',
  title: 'Run code in the app',
  description:
    'Runs JavaScript in the app (page, Electron, Node), global scope, await allowed. Answers the value as JSON (cycles, nodes, cuts marked) or what it threw.',
  input: z.object({
    expression: z.string().min(1).max(100_000).describe('Code.'),
    timeoutMs: timeout(5000),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  defaultPermission: 'ask',
  describeChange: ({ expression }) => `Run this code in the app: ${expression.slice(0, 2000)}`,
  handler: ({ expression, timeoutMs }, { instance, signal, client, surface }) =>
    instance.evaluate(expression, timeoutMs, client?.name ?? surface, signal),
});

export const uiScreenshot = tool({
  name: 'ui_screenshot',
  title: 'Screenshot the app',
  description: 'The viewport, whole page or one element as an image.',
  input: z.object({
    ref: ref.optional().describe('Element.'),
    fullPage: z.boolean().optional().describe('Whole page.'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { instance, signal }) => instance.screenshot(args, signal),
});

export const uiTools = [uiSnapshot, uiAct, uiNavigate, uiWaitFor, uiEvaluate, uiScreenshot];
