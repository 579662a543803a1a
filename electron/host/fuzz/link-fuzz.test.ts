import { expect, it } from 'vitest';
import { connect } from '../../../agent/connection.js';
import { example } from '../../../plugins/example/agent/index.js';
import type { ExampleHost } from '../../../plugins/example/host/index.js';
import { Limits } from '../../../shared/protocol/limits.js';
import { RequestError } from '../../../shared/protocol/messenger.js';
import { cleanupAfterEach } from '../test-cleanup.js';
import { helloFrame, startTestCore, waitFor } from '../testing.js';
import { answerProblems, FuzzPeer } from './fuzz-peer.js';
import {
  type Expected,
  expectedAnswer,
  FUZZ_MAX_FRAME_BYTES,
  fuzzSeed,
  type LinkState,
  MARKER,
  planRun,
  type StepPlan,
  UnfitFrame,
} from './link-frames.js';

const FRAMES = Number(process.env.PORTHOLE_FUZZ_FRAMES ?? 10_000);
const defer = cleanupAfterEach();

/** What goes on the wire for a string: lone surrogates become U+FFFD, as the receiver will see them. */
const onWire = (data: string | Uint8Array) => (typeof data === 'string' ? Buffer.from(data).toString() : data);

interface StepFrame {
  kind: string;
  data: string | Uint8Array;
  depth?: number;
  /** Set for the replies a step makes to the inspector's own request. */
  expected?: Expected;
}

it(`answers ${FRAMES} generated link frames as docs/protocol.md says, and stays up`, { timeout: 120_000 }, async () => {
  const seed = fuzzSeed('link frames → inspector');
  const started = Date.now();
  const t = await startTestCore({ link: { maxFrameBytes: FUZZ_MAX_FRAME_BYTES, heartbeatIntervalMs: 60_000 } });
  defer(() => t.stop());
  let logs = 0;
  t.core.bus.on('plugin:event', (e) => {
    if (e.plugin === 'example' && e.event === 'log') logs++;
  });

  const stats = {
    frames: 0,
    skipped: 0,
    steps: 0,
    connections: 0,
    closes: {} as Record<number, number>,
    answers: {} as Record<string, number>,
  };
  let expectedLogs = 0;
  let resume: { sessionId: string; secret: string } | undefined;
  let main: { peer: FuzzPeer; counted: number } | undefined;
  let mainErrors = 0;
  const session: LinkState = {
    side: 'host',
    phase: 'session',
    maxFrameBytes: FUZZ_MAX_FRAME_BYTES,
    accepted: new Set(['example']),
  };

  const fail = (step: number, what: string[], frames: StepFrame[]) => {
    const shown = frames.map(
      (f) => `${f.kind}: ${typeof f.data === 'string' ? f.data.slice(0, 160) : `<${f.data.length} bytes>`}`,
    );
    throw new Error(`seed ${seed}, step ${step}:\n  ${what.join('\n  ')}\nframes:\n  ${shown.join('\n  ')}`);
  };
  const openMain = async () => {
    const peer = await FuzzPeer.open(t.urls.debuggeeUrl);
    stats.connections++;
    peer.send(JSON.stringify(helloFrame(resume ? { resume } : {})));
    const welcome = await peer.until(() => peer.take((f) => f.type === 'welcome'), 'the welcome');
    if (resume) expect(welcome.sessionId).toBe(resume.sessionId);
    resume = { sessionId: welcome.sessionId as string, secret: welcome.resumeSecret as string };
    return { peer, counted: 0 };
  };

  /** Sends a step's frames (and a barrier unless the link will be closed), waits, and checks every answer. */
  const runStep = async (n: number, peer: FuzzPeer, state: LinkState, counted: number, given: StepFrame[]) => {
    const expected: Expected[] = [];
    const frames: StepFrame[] = [];
    let closing: number | undefined;
    let phase = state.phase;
    for (const frame of given) {
      if (closing) {
        frames.push(frame); // on the wire after the close: never looked at
        continue;
      }
      let e: Expected;
      try {
        e = frame.expected ?? expectedAnswer(frame.data, { ...state, phase }, frame.depth);
      } catch (error) {
        if (!(error instanceof UnfitFrame)) throw error;
        stats.skipped++;
        continue;
      }
      frames.push(frame);
      expected.push(e);
      if (e.answer?.type === 'welcome') phase = 'session';
      if (e.counted && phase === 'session') counted++;
      if (e.log) expectedLogs++;
      closing = e.close ?? (counted >= Limits.maxProtocolErrors ? 4004 : undefined);
    }
    for (const frame of frames) peer.send(frame.data);
    stats.frames += frames.filter((f) => !f.expected).length;
    if (!closing) {
      const id = `§barrier${n}`;
      peer.send(JSON.stringify({ type: 'request', id, plugin: 'nope', method: 'barrier' }));
      expected.push({ answer: { type: 'reply-error', id, code: 'plugin-not-active' } });
      const late = expected.flatMap((e) => (e.late && e.answer && 'id' in e.answer ? [e.answer.id] : []));
      await peer.until(
        () => [id, ...late].every((want) => peer.inbox.some((f) => f.id === want)),
        `the answers of step ${n}`,
      );
    } else {
      await peer.until(() => peer.closed, `the close (${closing}) in step ${n}`);
      stats.closes[closing] = (stats.closes[closing] ?? 0) + 1;
      if (peer.closed!.code !== closing) fail(n, [`closed with ${peer.closed!.code}, expected ${closing}`], frames);
    }
    const received = peer.inbox.splice(0);
    for (const f of received)
      stats.answers[`${f.type}${f.code ? ` ${f.code}` : ''}`] =
        (stats.answers[`${f.type}${f.code ? ` ${f.code}` : ''}`] ?? 0) + 1;
    const problems = answerProblems(expected, received, closing !== undefined);
    if (problems.length > 0) fail(n, problems, frames);
    return { closing, counted, phase };
  };

  /** The inspector asks the peer for something, and the peer answers it right, twice, wrongly or late. */
  const ownRequest = async (variant: NonNullable<StepPlan['ownRequest']>) => {
    const host = t.core.plugins.instance(resume!.sessionId, 'example') as ExampleHost;
    const outcome = host.echo('§probe').then(
      (text) => ({ ok: true as const, text }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const peer = main!.peer;
    const request = await peer.until(
      () => peer.take((f) => f.type === 'request' && f.method === 'echo'),
      "the inspector's request",
    );
    const id = request.id as string;
    const ok = JSON.stringify({ type: 'reply-ok', id, result: { text: '§probe' } });
    const frames: StepFrame[] = [];
    if (variant === 'ok-then-duplicate') {
      frames.push({ kind: 'reply', data: ok, expected: {} });
      frames.push({
        kind: 'duplicate reply',
        data: ok,
        expected: { answer: { type: 'protocol-error', code: 'unknown-correlation-id', id }, counted: true },
      });
    } else if (variant === 'long-id-then-ok') {
      frames.push({
        kind: 'reply with a long id',
        data: JSON.stringify({ type: 'reply-ok', id: `${id}${'x'.repeat(300)}` }),
        expected: { answer: { type: 'protocol-error', code: 'invalid-message' }, counted: true },
      });
      frames.push({ kind: 'reply', data: ok, expected: {} });
    } else if (variant === 'error') {
      frames.push({
        kind: 'reply-error',
        data: JSON.stringify({
          type: 'reply-error',
          id,
          error: { code: 'handler-error', message: MARKER.repeat(5000) },
        }),
        expected: {},
      });
    } else {
      frames.push({
        kind: 'invalid result',
        data: JSON.stringify({ type: 'reply-ok', id, result: { text: 5 } }),
        expected: {},
      });
    }
    return { frames, outcome, variant };
  };

  const steps = planRun(seed, FRAMES);
  for (const [n, { plan, recipes }] of steps.entries()) {
    stats.steps++;
    const frames: StepFrame[] = recipes.map((recipe, i) => ({
      kind: recipe.kind,
      depth: recipe.depth,
      data: onWire(recipe.build(`§s${n}-${i}`)),
    }));
    if (frames.length === 0) continue;

    if (plan.fresh) {
      // A new connection whose first frame is whatever came up: rejected, unless it is a valid hello.
      const peer = await FuzzPeer.open(t.urls.debuggeeUrl);
      stats.connections++;
      const { closing } = await runStep(n, peer, { ...session, phase: 'pre-hello' }, 0, frames);
      if (!closing) peer.ws.close();
      continue;
    }

    if (plan.ownRequest && main && main.counted > Limits.maxProtocolErrors - 4) {
      main.peer.ws.close();
      await main.peer.until(() => main!.peer.closed, 'a clean close');
      main = undefined;
    }
    main ??= await openMain();
    const own = plan.ownRequest ? await ownRequest(plan.ownRequest) : undefined;
    const before = main.counted;
    const { closing, counted } = await runStep(n, main.peer, session, main.counted, [
      ...(own?.frames ?? []),
      ...frames,
    ]);
    mainErrors += counted - before;
    if (own) {
      const result = await own.outcome;
      if (own.variant === 'ok-then-duplicate' || own.variant === 'long-id-then-ok') {
        expect(result, `seed ${seed} step ${n}`).toEqual({ ok: true, text: '§probe' });
      } else {
        expect(result.ok, `seed ${seed} step ${n}`).toBe(false);
        const error = (result as { error: RequestError }).error;
        expect(error).toBeInstanceOf(RequestError);
        expect(error.message.length).toBeLessThanOrEqual(Limits.maxErrorMessageChars);
        if (own.variant === 'error') expect(error.code).toBe('handler-error');
      }
    }
    if (closing) main = undefined;
    else main.counted = counted;
  }

  // Everything the app sent that was valid arrived; the session counted every refused frame.
  expect(logs).toBe(expectedLogs);
  await waitFor(() => t.core.sessions.get(resume!.sessionId), 'the session');
  expect(t.core.sessions.get(resume!.sessionId)!.info.protocolErrors).toBe(mainErrors);
  // And the inspector still serves: its health check, and a real agent that connects and is pinged.
  expect((await fetch(`${t.urls.controlUrl}/healthz`)).status).toBe(200);
  const agent = connect({ url: t.urls.debuggeeUrl, app: { id: 'com.after', name: 'After' }, plugins: [example()] });
  defer(() => agent.disconnect());
  const sessionId = await waitFor(() => agent.status.state === 'connected' && agent.status.sessionId, 'the agent');
  expect((await (t.core.plugins.instance(sessionId, 'example') as ExampleHost).ping()).agentTime).toBeGreaterThan(0);
  expect(stats.frames).toBeGreaterThanOrEqual(FRAMES * 0.99);
  console.log(`[fuzz] link frames → inspector: ${JSON.stringify({ ...stats, logs, ms: Date.now() - started })}`);
});
