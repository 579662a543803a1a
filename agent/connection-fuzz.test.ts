import { afterEach, expect, it, vi } from 'vitest';
import { answerProblems, FuzzPeer } from '../electron/host/fuzz/fuzz-peer.js';
import {
  type Expected,
  expectedAnswer,
  FUZZ_MAX_FRAME_BYTES,
  fuzzSeed,
  type LinkState,
  planRun,
  UnfitFrame,
} from '../electron/host/fuzz/link-frames.js';
import { cleanupAfterEach } from '../electron/host/test-cleanup.js';
import { waitFor } from '../electron/host/testing.js';
import { example } from '../plugins/example/agent/index.js';
import { connect } from './connection.js';
import { startFakeInspector } from './testing.js';

const FRAMES = Number(process.env.PORTHOLE_FUZZ_FRAMES ?? 10_000);
const defer = cleanupAfterEach();
afterEach(() => vi.restoreAllMocks());

const onWire = (data: string | Uint8Array) => (typeof data === 'string' ? Buffer.from(data).toString() : data);

it(`answers ${FRAMES} generated frames from the inspector as docs/protocol.md says, inside the app`, {
  timeout: 120_000,
}, async () => {
  const seed = fuzzSeed('link frames → agent');
  const started = Date.now();
  // The agent reports each refusal it gets from the inspector on the console; a run makes thousands.
  const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const inspector = await startFakeInspector(
    { heartbeatIntervalMs: 60_000, maxFrameBytes: FUZZ_MAX_FRAME_BYTES },
    { manualWelcome: true },
  );
  defer(() => inspector.close());
  const agent = connect({
    url: inspector.url,
    app: { id: 'com.fuzz.agent', name: 'Fuzzed' },
    plugins: [example()],
    reconnect: { initialDelayMs: 5, maxDelayMs: 20 },
  });
  defer(() => agent.disconnect());

  const stats = { frames: 0, skipped: 0, steps: 0, connections: 0, answers: {} as Record<string, number> };
  let connection = 0;
  let peer: FuzzPeer | undefined;
  const state = (phase: LinkState['phase']): LinkState => ({
    side: 'agent',
    phase,
    maxFrameBytes: FUZZ_MAX_FRAME_BYTES,
    accepted: new Set(['example']),
  });

  /** The next connection of the agent; frames go to it before its welcome when `before` has any. */
  const nextConnection = async (n: number, before: { kind: string; data: string | Uint8Array; depth?: number }[]) => {
    const link = await inspector.link(++connection);
    stats.connections++;
    const next = new FuzzPeer(link.ws);
    if (before.length > 0) await runStep(n, next, state('pre-welcome'), before, `§early${n}`);
    link.welcome();
    await waitFor(
      () => agent.status.state === 'connected' && agent.status.sessionId === `s${connection}`,
      'the welcome',
    );
    return next;
  };

  const runStep = async (
    n: number,
    target: FuzzPeer,
    at: LinkState,
    given: { kind: string; data: string | Uint8Array; depth?: number }[],
    barrier: string,
  ) => {
    const expected: Expected[] = [];
    const frames: typeof given = [];
    for (const frame of given) {
      try {
        expected.push(expectedAnswer(frame.data, at, frame.depth));
        frames.push(frame);
      } catch (error) {
        if (!(error instanceof UnfitFrame)) throw error;
        stats.skipped++;
      }
    }
    for (const frame of frames) target.send(frame.data);
    stats.frames += frames.length;
    // Before the welcome a request is out of place (unexpected-message, with its id); after it, the
    // request names a plugin the app does not have.
    target.send(JSON.stringify({ type: 'request', id: barrier, plugin: 'nope', method: 'barrier' }));
    expected.push({
      answer:
        at.phase === 'session'
          ? { type: 'reply-error', id: barrier, code: 'plugin-not-active' }
          : { type: 'protocol-error', code: 'unexpected-message', id: barrier },
    });
    const late = expected.flatMap((e) => (e.late && e.answer && 'id' in e.answer ? [e.answer.id] : []));
    await target.until(() => [barrier, ...late].every((id) => target.inbox.some((f) => f.id === id)), `step ${n}`);
    const received = target.inbox.splice(0);
    for (const f of received) {
      const key = `${f.type}${f.code ? ` ${f.code}` : ''}`;
      stats.answers[key] = (stats.answers[key] ?? 0) + 1;
    }
    const problems = answerProblems(expected, received, false);
    if (problems.length > 0) {
      const shown = frames.map(
        (f) => `${f.kind}: ${typeof f.data === 'string' ? f.data.slice(0, 160) : `<${f.data.length} bytes>`}`,
      );
      throw new Error(`seed ${seed}, step ${n}:\n  ${problems.join('\n  ')}\nframes:\n  ${shown.join('\n  ')}`);
    }
  };

  for (const [n, { plan, recipes }] of planRun(seed, FRAMES).entries()) {
    stats.steps++;
    const frames = recipes.map((recipe, i) => ({
      kind: recipe.kind,
      depth: recipe.depth,
      data: onWire(recipe.build(`§s${n}-${i}`)),
    }));
    if (!peer || plan.fresh) {
      // The inspector drops the link; the app reconnects and gets these frames before its welcome.
      peer?.ws.terminate();
      peer = await nextConnection(n, peer ? frames : []);
      if (stats.connections > 1) continue;
    }
    await runStep(n, peer, state('session'), frames, `§barrier${n}`);
  }

  // The app's connection came through all of it: still connected, still answering.
  expect(agent.status.state).toBe('connected');
  peer!.send(
    JSON.stringify({ type: 'request', id: 'last', plugin: 'example', method: 'echo', params: { text: 'still here' } }),
  );
  expect(await peer!.until(() => peer!.take((f) => f.id === 'last'), 'the last echo')).toMatchObject({
    type: 'reply-ok',
    result: { text: 'still here' },
  });
  // Nothing the inspector sent made the agent's own code fail.
  expect(warnings.mock.calls.filter((c) => String(c[0]).includes('failed on a frame'))).toEqual([]);
  expect(stats.frames).toBeGreaterThanOrEqual(FRAMES * 0.98);
  console.log(`[fuzz] link frames → agent: ${JSON.stringify({ ...stats, ms: Date.now() - started })}`);
});
