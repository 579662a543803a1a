// The checks behind expectNoFailedRequests / expectNoConsoleErrors and the test matchers built on
// them: what failed, read through the tools, and a message that names each failure. Times and
// console sequence numbers are different units, so they are different options: `since` is a Date
// (the app's clock), `afterSeq` a console seq; a number given as `since` is refused.

/** Calls a tool by name and answers its value (the client's `call`). */
export type CallTool = (name: string, args?: Record<string, unknown>) => Promise<unknown>;

export interface FailedRequestsOptions {
  /** The session to check; default the one connected app (a scoped client checks its own sessions). */
  sessionId?: string;
  /** Only requests that started at or after this time (the app's clock). */
  since?: Date;
  /** How long to wait at most for requests still in flight to finish before checking. Default 1000 ms. */
  settleMs?: number;
}

interface ConsoleErrorsBase {
  sessionId?: string;
  /** Also count warnings. */
  includeWarnings?: boolean;
}

export type ConsoleErrorsOptions = ConsoleErrorsBase &
  (
    | {
        /** Only errors logged at or after this time (the app's clock). */
        since?: Date;
        afterSeq?: never;
      }
    | {
        /** Only errors after this console seq (the `latest` of a console tool's answer). */
        afterSeq?: number;
        since?: never;
      }
  );

export interface FailedRequest {
  sessionId?: string;
  id: string;
  method: string;
  url: string;
  /** The status of an answer of 400 or more. */
  status?: number;
  /** Why a request that got no answer failed. */
  error?: string;
  startedAt: number;
}

export interface LoggedError {
  sessionId?: string;
  text: string;
  kind: string;
  level: 'error' | 'warn';
  /** Where it was logged or thrown, when known. */
  site?: string;
  /** Occurrences counted by the check (after `afterSeq`, or in the session). */
  count: number;
  lastSeen: number;
  lastSeq: number;
}

/** A check found failures: `failures` lists them; the message names each one. */
export class PortholeExpectationError<F = FailedRequest | LoggedError> extends Error {
  override name = 'PortholeExpectationError';
  constructor(
    message: string,
    readonly failures: readonly F[],
  ) {
    super(message);
  }
}

/** Where to look: the sessions to check (undefined: the tools' own routing), and how to settle first. */
export interface CheckScope {
  sessions: () => Promise<(string | undefined)[]>;
  /** Runs before the check, e.g. a page's agent sending what it holds. */
  settle?: () => Promise<void>;
  /** How a session is named in messages when several are checked. */
  describe?: (sessionId: string | undefined) => string | undefined;
}

const PAGE = 500;
/** Pages read per query: 10 × 500 failures is more than any message should list. */
const MAX_PAGES = 10;
const LISTED = 20;

export function checkFailedRequestsOptions(options: unknown): FailedRequestsOptions {
  const given = optionsObject(options, 'expectNoFailedRequests');
  if ('afterSeq' in given)
    throw new TypeError(
      'expectNoFailedRequests takes no afterSeq (console seqs are not requests): use { since: Date }',
    );
  refuseUnknown(given, ['sessionId', 'since', 'settleMs'], 'expectNoFailedRequests');
  checkSince(given.since, 'expectNoFailedRequests');
  return given as FailedRequestsOptions;
}

export function checkConsoleErrorsOptions(options: unknown): ConsoleErrorsOptions {
  const given = optionsObject(options, 'expectNoConsoleErrors');
  refuseUnknown(given, ['sessionId', 'since', 'afterSeq', 'includeWarnings'], 'expectNoConsoleErrors');
  if (given.since !== undefined && given.afterSeq !== undefined) {
    throw new TypeError(
      'expectNoConsoleErrors: give since (a Date) or afterSeq (a console seq), not both: they are different units',
    );
  }
  checkSince(given.since, 'expectNoConsoleErrors');
  if (given.afterSeq !== undefined && !(Number.isInteger(given.afterSeq) && (given.afterSeq as number) >= 0)) {
    throw new TypeError(
      `expectNoConsoleErrors: afterSeq is a console seq (a whole number ≥ 0, the \`latest\` of a console tool's answer), not ${shown(given.afterSeq)}`,
    );
  }
  return given as ConsoleErrorsOptions;
}

function optionsObject(options: unknown, helper: string): Record<string, unknown> {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new TypeError(`${helper} takes an options object, not ${shown(options)}`);
  return options as Record<string, unknown>;
}

function refuseUnknown(given: Record<string, unknown>, known: string[], helper: string): void {
  for (const key of Object.keys(given)) {
    if (!known.includes(key))
      throw new TypeError(`${helper} has no option "${key}"; its options are ${known.join(', ')}`);
  }
}

function checkSince(since: unknown, helper: string): void {
  if (since === undefined) return;
  if (since instanceof Date && Number.isFinite(since.getTime())) return;
  if (typeof since === 'number') {
    throw new TypeError(
      `${helper}: since must be a Date, not the number ${since}: a number could be milliseconds or a console seq. Use { since: new Date(ms) } for a time${helper === 'expectNoConsoleErrors' ? ', { afterSeq } for a console seq' : ''}`,
    );
  }
  throw new TypeError(`${helper}: since must be a valid Date, not ${shown(since)}`);
}

const shown = (value: unknown) =>
  value instanceof Date ? 'an invalid Date' : typeof value === 'string' ? `the string "${value}"` : String(value);

interface Summary {
  id: string;
  method: string;
  url: string;
  status?: number;
  error?: string;
  mockRuleId?: string;
  startedAt: number;
  state: string;
}

interface ListPage {
  transactions: Summary[];
  nextCursor?: string;
  pending: number;
}

/**
 * Waits (at most `ms`) until no session has a request in flight and two reads 50 ms apart agree:
 * what the app did just before the check may still be on its way in the agent's last batch.
 */
async function settleRequests(call: CallTool, sessions: (string | undefined)[], ms: number): Promise<void> {
  await settled(ms, async () => {
    let pending = 0;
    let total = 0;
    for (const sessionId of sessions) {
      const page = (await call('network_list_transactions', { ...idOf(sessionId), limit: 1 })) as ListPage & {
        total?: number;
      };
      pending += page.pending;
      total += page.total ?? 0;
    }
    return pending === 0 ? `${total}` : undefined;
  });
}

/** Waits (at most `ms`) until two reads 50 ms apart see the same newest console seq in every session. */
async function settleConsole(call: CallTool, sessions: (string | undefined)[], ms: number): Promise<void> {
  await settled(ms, async () => {
    const latest: unknown[] = [];
    for (const sessionId of sessions) {
      latest.push(
        ((await call('console_list_errors', { ...idOf(sessionId), limit: 1 })) as { latest?: unknown }).latest,
      );
    }
    return JSON.stringify(latest);
  });
}

/** Reads `state` every 50 ms until it is defined and the same twice in a row, or `ms` have passed. */
async function settled(ms: number, state: () => Promise<string | undefined>): Promise<void> {
  const deadline = Date.now() + ms;
  let last: string | undefined;
  for (;;) {
    const now = await state();
    if ((now !== undefined && now === last) || Date.now() >= deadline) return;
    last = now;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Requests that failed or answered ≥ 400 (answers of mock rules excepted: those are what the test asked for). */
export async function findFailedRequests(
  call: CallTool,
  scope: CheckScope,
  options: FailedRequestsOptions = {},
): Promise<FailedRequest[]> {
  const checked = checkFailedRequestsOptions(options);
  await scope.settle?.();
  const sessions = checked.sessionId ? [checked.sessionId] : await scope.sessions();
  await settleRequests(call, sessions, checked.settleMs ?? 1000);
  const found = new Map<string, FailedRequest>();
  for (const sessionId of sessions) {
    for (const filter of [{ failedOnly: true }, { status: { min: 400, max: 999 } }]) {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const answer = (await call('network_list_transactions', {
          ...idOf(sessionId),
          ...filter,
          ...(checked.since ? { since: checked.since.getTime() } : {}),
          order: 'oldest',
          limit: PAGE,
          ...(cursor ? { cursor } : {}),
        })) as ListPage;
        for (const t of answer.transactions) {
          if (t.mockRuleId) continue;
          found.set(`${sessionId}/${t.id}`, {
            ...idOf(sessionId),
            id: t.id,
            method: t.method,
            url: t.url,
            ...(t.status !== undefined ? { status: t.status } : {}),
            ...(t.error !== undefined ? { error: t.error } : {}),
            startedAt: t.startedAt,
          });
        }
        cursor = answer.nextCursor;
        if (!cursor) break;
      }
    }
  }
  return [...found.values()].sort((a, b) => a.startedAt - b.startedAt);
}

interface ErrorGroup {
  text: string;
  kind: string;
  site?: string;
  count: number;
  lastSeen: number;
  lastSeq: number;
}

/** Errors (uncaught, unhandled rejections, console.error, failed asserts) the app logged. */
export async function findConsoleErrors(
  call: CallTool,
  scope: CheckScope,
  options: ConsoleErrorsOptions = {},
): Promise<LoggedError[]> {
  const checked = checkConsoleErrorsOptions(options);
  await scope.settle?.();
  const sessions = checked.sessionId ? [checked.sessionId] : await scope.sessions();
  await settleConsole(call, sessions, 1000);
  const found: LoggedError[] = [];
  for (const sessionId of sessions) {
    for (const level of checked.includeWarnings ? (['error', 'warn'] as const) : (['error'] as const)) {
      const answer = (await call('console_list_errors', {
        ...idOf(sessionId),
        ...(checked.afterSeq !== undefined ? { since: checked.afterSeq } : {}),
        includeWarnings: level === 'warn',
        limit: 200,
      })) as { groups: ErrorGroup[] };
      for (const g of answer.groups) {
        if (checked.since && g.lastSeen < checked.since.getTime()) continue;
        // The second answer holds the errors again, with the warnings: those are the groups it adds.
        if (level === 'warn' && found.some((f) => f.sessionId === sessionId && f.lastSeq === g.lastSeq)) continue;
        found.push({
          ...idOf(sessionId),
          text: g.text,
          kind: g.kind,
          level,
          ...(g.site ? { site: g.site } : {}),
          count: g.count,
          lastSeen: g.lastSeen,
          lastSeq: g.lastSeq,
        });
      }
    }
  }
  return found.sort((a, b) => a.lastSeen - b.lastSeen);
}

const idOf = (sessionId: string | undefined) => (sessionId ? { sessionId } : {});

function where(scope: CheckScope, sessionId: string | undefined, several: boolean): string {
  if (!several) return '';
  const named = scope.describe?.(sessionId) ?? sessionId;
  return named ? `  [${named}]` : '';
}

export function describeFailedRequest(f: FailedRequest): string {
  const outcome = f.status !== undefined ? String(f.status) : `failed: ${f.error ?? 'no response'}`;
  return `${f.method} ${f.url} → ${outcome}`;
}

/** Errors nobody logged on purpose say so; console.error lines are printed as they were logged. */
const KIND_PREFIX: Record<string, string> = {
  exception: 'uncaught: ',
  rejection: 'unhandled rejection: ',
  assert: 'assertion failed: ',
};

export function describeLoggedError(e: LoggedError): string {
  const times = e.count > 1 ? ` (×${e.count})` : '';
  const site = e.site ? ` at ${e.site}` : '';
  const how = KIND_PREFIX[e.kind] ?? (e.level === 'warn' ? 'warning: ' : '');
  return `${how}${e.text}${times}${site}`;
}

function listed<T>(items: readonly T[], line: (item: T) => string): string {
  const shown = items.slice(0, LISTED).map((item) => `  ${line(item)}`);
  if (items.length > LISTED) shown.push(`  … and ${items.length - LISTED} more`);
  return shown.join('\n');
}

export function failedRequestsMessage(failures: readonly FailedRequest[], scope: CheckScope = noScope): string {
  const several = new Set(failures.map((f) => f.sessionId)).size > 1;
  return `${failures.length} request${failures.length === 1 ? '' : 's'} failed:\n${listed(failures, (f) => `${describeFailedRequest(f)}${where(scope, f.sessionId, several)}`)}`;
}

export function consoleErrorsMessage(errors: readonly LoggedError[], scope: CheckScope = noScope): string {
  const several = new Set(errors.map((f) => f.sessionId)).size > 1;
  return `the app logged ${errors.length} error${errors.length === 1 ? '' : 's'}:\n${listed(errors, (e) => `${describeLoggedError(e)}${where(scope, e.sessionId, several)}`)}`;
}

const noScope: CheckScope = { sessions: async () => [undefined] };

export async function expectNoFailedRequests(call: CallTool, scope: CheckScope, options?: FailedRequestsOptions) {
  const failures = await findFailedRequests(call, scope, options);
  if (failures.length) throw new PortholeExpectationError(failedRequestsMessage(failures, scope), failures);
}

export async function expectNoConsoleErrors(call: CallTool, scope: CheckScope, options?: ConsoleErrorsOptions) {
  const errors = await findConsoleErrors(call, scope, options);
  if (errors.length) throw new PortholeExpectationError(consoleErrorsMessage(errors, scope), errors);
}
