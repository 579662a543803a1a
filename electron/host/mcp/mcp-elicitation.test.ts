import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AskAnswer, PermissionAsk } from '../../../shared/permissions.js';
import { defineTool } from '../../../shared/tool.js';
import { startTestCore, waitFor } from '../testing.js';
import { BridgeClient } from '../ui-bridge/bridge-testing.js';

// Issue 37 §2: a tool set to Ask is asked in the client (2025: elicitation over the open request;
// 2026-07-28: input_required and the retry) when the client declared the capability; with a window
// open too, the first answer wins and the other prompt closes; the history says who decided where.
// Clients without the capability get today's refusal. Real SDK clients, 1.x and v2, over real HTTP.

const TOOL = 'inspector_test_ask';
let runs = 0;
const askTool = defineTool({
  name: TOOL,
  title: 'Test: change after asking',
  description: 'Adds one to a counter.',
  input: z.object({ note: z.string().optional().describe('Shown in the question.') }),
  annotations: { readOnlyHint: false, destructiveHint: false },
  describeChange: () => 'adds one to the test counter',
  handler: () => `ran ${++runs}`,
});

type Era = 'legacy' | 'modern';
type Answerer = (message: string) => Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: object }>;
interface Caller {
  call(): Promise<{ isError?: boolean; content: { type: string; text?: string }[] }>;
  /** Questions the client's user saw. */
  asked: string[];
  /** Questions the server closed before the client's user answered (the window answered first). */
  closed: number;
  close(): Promise<void>;
}

describe('Ask, answered in the MCP client', () => {
  let t: Awaited<ReturnType<typeof startTestCore>>;
  let answer: Answerer;
  const open: Caller[] = [];

  beforeAll(async () => {
    t = await startTestCore();
    t.core.tools.register([askTool]);
    t.core.permissions.set({ tools: { [TOOL]: 'ask' }, askTimeoutMs: 10_000 });
  });
  afterAll(async () => {
    for (const c of open) await c.close().catch(() => {});
    await t.stop();
  });
  beforeEach(() => {
    t.core.permissions.set({ tools: { [TOOL]: 'ask' }, askTimeoutMs: 10_000 }); // forgets "for this session"
  });

  const headers = () => ({ authorization: `Bearer ${t.core.mcp.token()}` });

  async function connectClient(era: Era, elicitation: boolean, name: string): Promise<Caller> {
    const asked: string[] = [];
    const caller = { asked, closed: 0 } as Caller;
    const handler = async (message: string) => {
      asked.push(message);
      return answer(message);
    };
    if (era === 'legacy') {
      const client = new LegacyClient(
        { name, version: '1.0.0' },
        { capabilities: elicitation ? { elicitation: {} } : {} },
      );
      if (elicitation) {
        client.setRequestHandler(ElicitRequestSchema, (request) => handler(request.params.message));
      }
      const transport = new LegacyTransport(new URL(t.urls.mcpUrl), { requestInit: { headers: headers() } });
      await client.connect(transport);
      // The server closes the client's prompt with notifications/cancelled for its elicitation request.
      const receive = transport.onmessage;
      transport.onmessage = (message) => {
        if ('method' in message && message.method === 'notifications/cancelled') caller.closed++;
        receive?.(message);
      };
      caller.call = () => client.callTool({ name: TOOL, arguments: { note: era } }) as never;
      caller.close = () => client.close();
    } else {
      const client = new ModernClient(
        { name, version: '2.0.0' },
        {
          versionNegotiation: { mode: { pin: '2026-07-28' } },
          capabilities: elicitation ? { elicitation: { form: {} } } : {},
        },
      );
      if (elicitation) {
        client.setRequestHandler(
          'elicitation/create',
          (request) => handler((request.params as { message: string }).message) as never,
        );
      }
      await client.connect(new ModernTransport(new URL(t.urls.mcpUrl), { requestInit: { headers: headers() } }));
      caller.call = () => client.callTool({ name: TOOL, arguments: { note: era } }) as never;
      caller.close = () => client.close();
    }
    open.push(caller);
    return caller;
  }

  const form = (decision: AskAnswer) => async () => ({ action: 'accept' as const, content: { decision } });
  const lastCall = () => t.core.history.list(undefined, { tool: TOOL })[0]!;
  const textOf = (r: { content: { type: string; text?: string }[] }) => r.content.map((c) => c.text ?? '').join('\n');

  describe.each<Era>(['legacy', 'modern'])('%s era', (era) => {
    const client = era === 'legacy' ? '1.x SDK client (2025-era session)' : 'v2 SDK client (2026-07-28)';

    it(`asks the ${client}'s user with no window open: Allow once runs it, Deny refuses it, Allow for this session stops asking`, async () => {
      const c = await connectClient(era, true, `ask-${era}`);
      answer = form('allow-once');
      const before = runs;
      const allowed = await c.call();
      expect(allowed.isError, textOf(allowed)).toBeFalsy();
      expect(runs).toBe(before + 1);
      expect(c.asked).toHaveLength(1);
      expect(c.asked[0]).toMatch(new RegExp(`^Porthole: allow ${TOOL}\\? adds one to the test counter`));
      expect(lastCall()).toMatchObject({
        status: 'succeeded',
        decision: { outcome: 'allowed', by: 'user', scope: 'once', where: 'client' },
      });
      // One record per call, in both eras (the 2026-07-28 retry continues the first request's call).
      const calls = t.core.history.list(undefined, { tool: TOOL }).length;

      answer = form('deny');
      const denied = await c.call();
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toMatch(/the user declined .* in the MCP client/);
      expect(runs).toBe(before + 1);
      expect(lastCall()).toMatchObject({ status: 'refused', decision: { outcome: 'declined', where: 'client' } });

      answer = async () => ({ action: 'decline' });
      expect((await c.call()).isError).toBe(true);

      answer = form('allow-session');
      expect((await c.call()).isError).toBeFalsy();
      const asked = c.asked.length;
      expect((await c.call()).isError).toBeFalsy();
      expect(c.asked).toHaveLength(asked); // not asked again
      expect(lastCall().decision).toMatchObject({ by: 'session-grant' });
      expect(t.core.history.list(undefined, { tool: TOOL }).length).toBe(calls + 4);
    });

    it(`refuses as today when the ${client} did not declare elicitation and no window is open`, async () => {
      const c = await connectClient(era, false, `plain-${era}`);
      const before = runs;
      const refused = await c.call();
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/no Porthole window is open to ask in/);
      expect(runs).toBe(before);
      expect(lastCall()).toMatchObject({ status: 'refused', decision: { by: 'headless-setting' } });
    });

    it(`with a window open too, the first answer wins: the window's closes the ${client}'s prompt, the client's closes the window's`, async () => {
      const c = await connectClient(era, true, `race-${era}`);
      const w = await BridgeClient.open(t);
      await w.result('app.snapshot');
      try {
        // The window answers first; the client's user never does.
        let release: (() => void) | undefined;
        answer = () =>
          new Promise((resolve) => {
            release = () => resolve({ action: 'accept', content: { decision: 'deny' } });
          });
        const seen = w.events('permission:ask').length;
        const running = c.call();
        const ask = (await waitFor(() => w.events('permission:ask')[seen], 'the window to be asked')).data
          .ask as PermissionAsk;
        await waitFor(() => c.asked.length > 0, 'the client to be asked');
        await w.result('permissions.answer', { askId: ask.id, answer: 'allow-once' });
        if (era === 'legacy') await waitFor(() => c.closed === 1, "the client's prompt to close");
        // 2026-07-28: the prompt is the client's own; its late answer finds the question settled.
        release?.();
        const result = await running;
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(lastCall()).toMatchObject({ status: 'succeeded', decision: { by: 'user', where: 'window' } });

        // The client answers first: the window's prompt closes (permission:settled).
        answer = form('allow-once');
        const settledBefore = w.events('permission:settled').length;
        const second = await c.call();
        expect(second.isError, textOf(second)).toBeFalsy();
        await waitFor(() => w.events('permission:settled').length > settledBefore, 'the window prompt to close');
        expect(w.events('permission:settled').at(-1)!.data).toMatchObject({
          decision: { outcome: 'allowed', where: 'client' },
        });
        expect(lastCall()).toMatchObject({ status: 'succeeded', decision: { where: 'client' } });
      } finally {
        w.ws.close();
        await waitFor(() => !t.core.permissions.windowOpen(), 'the window to go');
      }
    });
  });
});
