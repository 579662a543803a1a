import { Serializer } from '../../../agent/serialize.js';
import type { EvaluateResult } from '../protocol.js';

// ui_evaluate inside the app: the code runs in the global scope (indirect eval), as the DevTools
// console runs it. On Node the synchronous part runs through vm with the timeout, so a busy loop is
// stopped; in a page nothing can stop one, and only the inspector's own wait ends (the page's
// thread stays busy until the loop ends).

const LIMITS = { depth: 8, maxString: 10_000, maxItems: 200, maxBytes: 20_000 };

interface NodeVm {
  runInThisContext(code: string, options: { timeout?: number; filename?: string }): unknown;
}

const vm = (() => {
  const proc = (globalThis as { process?: { getBuiltinModule?(id: string): unknown; versions?: { node?: string } } })
    .process;
  return proc?.versions?.node ? (proc.getBuiltinModule?.('node:vm') as NodeVm | undefined) : undefined;
})();

/** Runs `expression` in the app and serializes its value (awaited if it is a promise) or what it threw. */
export async function evaluate(expression: string, timeoutMs: number, signal: AbortSignal): Promise<EvaluateResult> {
  const started = now();
  let value: unknown;
  try {
    value = run(expression, timeoutMs);
  } catch (e) {
    if (e instanceof Error && /Script execution timed out/.test(e.message))
      return { timedOut: true, ms: now() - started };
    const compile = compileProblem(e);
    if (compile) return { compileError: compile, ms: now() - started };
    return { thrown: serialize(e), ms: now() - started };
  }
  if (isThenable(value)) {
    const settled = await settle(value, timeoutMs - (now() - started), signal);
    if (settled === TIMED_OUT) return { timedOut: true, ms: now() - started };
    return settled.ok
      ? { value: serialize(settled.value), ms: now() - started }
      : { thrown: serialize(settled.error), ms: now() - started };
  }
  return { value: serialize(value), ms: now() - started };
}

/** The code as written; an object literal as a value (`{a: 1}`); with `await`, inside an async function. */
function run(expression: string, timeoutMs: number): unknown {
  const attempts: string[] = [];
  const trimmed = expression.trim();
  if (trimmed.startsWith('{') && trimmed.endsWith('}')) attempts.push(`(${expression}\n)`);
  attempts.push(expression);
  if (/\bawait\b/.test(expression)) {
    attempts.push(`(async () => (${expression}\n))()`, `(async () => {${expression}\n})()`);
  }
  let first: unknown;
  for (const code of attempts) {
    try {
      return execute(code, timeoutMs);
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      first ??= e;
    }
  }
  throw first;
}

function execute(code: string, timeoutMs: number): unknown {
  if (vm) return vm.runInThisContext(code, { timeout: timeoutMs, filename: 'porthole-evaluate.js' });
  // Indirect: global scope, not this module's. Running the caller's code is what this tool is for.
  // biome-ignore lint/security/noGlobalEval: ui_evaluate runs code the person allowed (it asks by default)
  const globalEval = globalThis.eval;
  return globalEval(code);
}

/** A syntax error, or eval forbidden by the page's Content-Security-Policy, in words. */
function compileProblem(e: unknown): string | undefined {
  if (e instanceof SyntaxError) return `SyntaxError: ${e.message}`;
  const message = e instanceof Error ? e.message : '';
  if (e instanceof EvalError || /unsafe-eval|Content Security Policy/i.test(message)) {
    return `the app forbids running code from a string (its Content-Security-Policy has no 'unsafe-eval'): ${message}`;
  }
  return undefined;
}

const TIMED_OUT = Symbol('timed out');

function settle(
  thenable: PromiseLike<unknown>,
  ms: number,
  signal: AbortSignal,
): Promise<{ ok: true; value: unknown } | { ok: false; error: unknown } | typeof TIMED_OUT> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, ms));
    const done = (outcome: { ok: true; value: unknown } | { ok: false; error: unknown } | typeof TIMED_OUT) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onAbort = () => done(TIMED_OUT);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      thenable.then(
        (value) => done({ ok: true, value }),
        (error) => done({ ok: false, error }),
      );
    } catch (error) {
      done({ ok: false, error });
    }
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  try {
    return (
      value !== null &&
      (typeof value === 'object' || typeof value === 'function') &&
      typeof (value as { then?: unknown }).then === 'function'
    );
  } catch {
    return false;
  }
}

function serialize(value: unknown) {
  return new Serializer(LIMITS).value(value);
}

const now = () => (globalThis.performance ? performance.now() : Date.now());
