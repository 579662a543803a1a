import { randomUUID } from 'node:crypto';
import {
  type AskAnswer,
  applyPreset,
  type CallDecision,
  DEFAULT_POLICY,
  type EffectivePermission,
  effectivePermission,
  isReadOnlyTool,
  type PermissionAsk,
  type PermissionPolicy,
  type PermissionPolicyInput,
  PermissionPolicySchema,
  type PermissionPreset,
  type PermissionSubject,
  type PermissionsView,
} from '../../../shared/permissions.js';
import type { CallSurface, ClientInfo } from '../../../shared/tool.js';
import { describeIssues } from '../../../shared/zod-issues.js';
import type { EventBus } from '../event-bus.js';
import type { RegisteredTool } from '../tools/tool-registry.js';
import { permissionsPath, readPolicy, writePolicy } from './permissions-file.js';

export interface PermissionDeps {
  dataDir: string;
  bus: EventBus;
  /** Every registered tool (for the view and the presets). */
  tools(): readonly RegisteredTool[];
  /** Windows connected to the core right now (0: nobody can be asked). */
  windows(): number;
}

/** What the permissions say about one call. */
export type Gate =
  | { allowed: true; decision?: CallDecision; input?: undefined }
  | { allowed: false; decision: CallDecision; message: string; input?: undefined }
  /** 2026-07-28: the call ends with input_required; `settled` is the question's eventual answer. */
  | {
      allowed: false;
      decision?: undefined;
      message: string;
      input: { askId: string; message: string; settled: Promise<Gate> };
    };

export interface AskRequest {
  callId: string;
  tool: RegisteredTool;
  args: Record<string, unknown>;
  surface: CallSurface;
  client?: ClientInfo;
  signal: AbortSignal;
  /** Told when the question is asked and every few seconds while it waits (what is left). */
  onWaiting?(message: string): void;
  /** Why this call asks although its tool is allowed (the tool's `askWhen`): shown as what it will do. */
  reason?: string;
  /** The MCP client can ask its user too (it declared elicitation). */
  asker?: ClientAsker;
}

/** How often a waiting call says it is still waiting. */
export const WAITING_NOTICE_MS = 5000;

/** A policy that is not valid; the message says what to fix. */
export class PolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyError';
  }
}

const UNKNOWN_CLIENT = '(unnamed client)';

interface PendingAsk {
  ask: PermissionAsk;
  grantKey: string;
  settle(gate: Gate): void;
  settled: Promise<Gate>;
}

/** 2026-07-28 answers remembered for a retry that comes after the window answered. */
const MAX_RECENT_ANSWERS = 256;

/**
 * How the MCP client can ask its own user: a 2025-era client that declared elicitation is asked
 * over the open request (`elicit`: the answer, or a throw when it could not ask); a 2026-07-28
 * client that declared it gets `input_required` (its call ends) and retries with the answer
 * (`resume`: the question's id, from `requestState`).
 */
export type ClientAsker =
  | { kind: 'elicit'; elicit(message: string, signal: AbortSignal): Promise<AskAnswer> }
  | { kind: 'input-required' }
  | { kind: 'resume'; askId: string; answer: AskAnswer };

/**
 * `core.permissions`: the policy the person at the window set for AI agents, kept in
 * `<data-dir>/permissions.json`, and the questions (`ask`) waiting for their answer. The MCP
 * surfaces consult it on every tools/list and every call; the window's own tool runner never does.
 */
export class Permissions {
  private current: PermissionPolicy = DEFAULT_POLICY;
  private readonly pending = new Map<string, PendingAsk>();
  /** "Allow for this session": `client\ntool` → when. Kept until the inspector stops. */
  private readonly grants = new Map<string, number>();
  /** Closes the client's prompt of a question (the window answered first). */
  private readonly closers = new Map<string, () => void>();
  private readonly recent = new Map<string, { grantKey: string; gate: Gate; callId: string }>();

  constructor(private readonly deps: PermissionDeps) {}

  get path(): string {
    return permissionsPath(this.deps.dataDir);
  }

  /** Reads the saved policy (at start). */
  load(): void {
    this.current = readPolicy(this.path);
  }

  policy(): PermissionPolicy {
    return this.current;
  }

  /**
   * Replaces the policy (validated), saves it and tells every MCP session and window. The "allow
   * for this session" answers are forgotten: whoever changes the permissions decides afresh.
   */
  set(input: PermissionPolicyInput): PermissionsView {
    const parsed = PermissionPolicySchema.safeParse(input);
    if (!parsed.success) throw new PolicyError(`the permissions are not valid: ${describeIssues(parsed.error)}`);
    this.current = parsed.data;
    this.grants.clear();
    writePolicy(this.path, this.current);
    this.deps.bus.emit('permissions:changed', {});
    return this.view();
  }

  preset(preset: PermissionPreset): PermissionsView {
    return this.set(applyPreset(this.current, preset, this.deps.tools().map(permissionSubject)));
  }

  /** The permission a client has for a tool. */
  effective(tool: RegisteredTool, client?: ClientInfo): EffectivePermission {
    return effectivePermission(this.current, permissionSubject(tool), client?.name);
  }

  /**
   * The refusal of a call that changes the app through a read-only tool (its `askWhen` says why)
   * while the read-only switch is on for this client; undefined when the switch is off.
   */
  readOnlyChange(tool: RegisteredTool, client?: ClientInfo): Gate | undefined {
    const clientOwn =
      client && Object.hasOwn(this.current.clients, client.name) ? this.current.clients[client.name] : undefined;
    if (this.current.readOnly) return readOnlyRefusal(tool, 'read-only', client);
    if (clientOwn?.readOnly) return readOnlyRefusal(tool, 'client-read-only', client);
    return undefined;
  }

  /** Whether tools/list shows the tool to this client: everything not denied. */
  listed(tool: RegisteredTool, client?: ClientInfo): boolean {
    return this.effective(tool, client).permission !== 'deny';
  }

  view(): PermissionsView {
    return {
      policy: this.current,
      tools: this.deps.tools().map((tool) => {
        const { permission, source } = effectivePermission(this.current, permissionSubject(tool));
        const { defaultPermission, askWhen } = tool.definition;
        return {
          name: tool.name,
          title: tool.info.title,
          plugin: tool.plugin,
          readOnly: isReadOnlyTool(tool.info),
          destructive: tool.info.annotations.destructiveHint === true,
          setting: Object.hasOwn(this.current.tools, tool.name) ? this.current.tools[tool.name] : undefined,
          ...(defaultPermission && defaultPermission !== 'allow' ? { defaultPermission } : {}),
          ...(askWhen ? { asksFor: askWhen.what } : {}),
          permission,
          source,
        };
      }),
      asks: [...this.pending.values()].map((p) => p.ask),
      grants: [...this.grants].map(([key, grantedAt]) => {
        const [client = '', tool = ''] = key.split('\n');
        return { client, tool, grantedAt };
      }),
    };
  }

  onChanged(listener: () => void): () => void {
    return this.deps.bus.on('permissions:changed', listener);
  }

  /** A denial known before the arguments are read (deny entries and the read-only switch). */
  refusal(tool: RegisteredTool, client?: ClientInfo): Gate | undefined {
    const { permission, source } = this.effective(tool, client);
    if (permission !== 'deny') return undefined;
    if (source === 'read-only' || source === 'client-read-only') return readOnlyRefusal(tool, source, client);
    return {
      allowed: false,
      decision: { outcome: 'denied', by: 'policy' },
      message: `${tool.name} is turned off: the user denied it to AI agents${source === 'client' ? ` (for the client "${client?.name}")` : ''} in the Porthole window (Permissions). Do not retry it; ask the user to allow it there if you need it, or do without it.`,
    };
  }

  /**
   * Decides a call to a tool whose permission is `ask`. The question goes to the window (when one is
   * open) and to the MCP client (when it can ask its user: `request.client`), the first answer wins
   * and the other prompt closes. A 2025-era client is asked over the open request (elicitation) and
   * this waits; a 2026-07-28 client's call ends with `input_required` (the gate's `input`) and its
   * retry brings the answer (`resume`). With neither a window nor a client to ask, the headless
   * setting decides.
   */
  async decide(request: AskRequest): Promise<Gate> {
    const { tool, client } = request;
    const grantKey = `${client?.name ?? UNKNOWN_CLIENT}\n${tool.name}`;
    if (this.grants.has(grantKey)) return { allowed: true, decision: { outcome: 'allowed', by: 'session-grant' } };
    const asker = request.asker;
    if (asker?.kind === 'resume') return this.resume(asker, grantKey, request);
    if (!this.windowOpen() && !asker) return this.headless(tool);
    if (request.signal.aborted) return { allowed: true };

    const ask = this.newAsk(request);
    const settled = this.open(ask, grantKey, request);
    if (asker?.kind === 'input-required') {
      // The call ends now; the question stays open (the window can answer it) until the client's retry or the timeout.
      return { allowed: false, input: { askId: ask.id, message: clientQuestion(ask), settled }, message: '' };
    }
    if (asker?.kind === 'elicit') {
      const closing = new AbortController();
      this.closers.set(ask.id, () => closing.abort());
      asker
        .elicit(clientQuestion(ask), closing.signal)
        .then((answer) => this.answer(ask.id, answer, 'client'))
        .catch(() => {
          // The client could not ask (it failed, or its prompt was closed because the window answered):
          // with no window to fall back on, that is a refusal.
          if (!this.windowOpen()) this.answer(ask.id, 'deny', 'client');
        });
    }
    return settled;
  }

  /** A 2026-07-28 retry: the client's answer to the question its first call was given, unless the window answered first. */
  private async resume(
    asker: { askId: string; answer: AskAnswer },
    grantKey: string,
    request: AskRequest,
  ): Promise<Gate> {
    const pending = this.pending.get(asker.askId);
    if (pending && pending.grantKey === grantKey) {
      const settled = pending.settled;
      this.answer(asker.askId, asker.answer, 'client');
      return settled;
    }
    const earlier = this.recent.get(asker.askId);
    if (earlier && earlier.grantKey === grantKey) return earlier.gate;
    // Unknown or expired (the inspector restarted, or it timed out long ago): ask again.
    return this.decide({ ...request, asker: { kind: 'input-required' } });
  }

  private newAsk(request: AskRequest): PermissionAsk {
    const { tool } = request;
    const now = Date.now();
    return {
      id: randomUUID(),
      callId: request.callId,
      tool: tool.name,
      title: tool.info.title,
      plugin: tool.plugin,
      surface: request.surface,
      client: request.client,
      args: shownArgs(request.args),
      change: request.reason ?? describeChange(tool, request.args),
      destructive: request.reason !== undefined || tool.info.annotations.destructiveHint === true,
      startedAt: now,
      expiresAt: now + this.current.askTimeoutMs,
    };
  }

  /** Opens a question: the window hears of it; it settles on the first answer, the timeout, or the caller giving up. */
  private open(ask: PermissionAsk, grantKey: string, request: AskRequest): Promise<Gate> {
    const { tool } = request;
    const timeoutMs = ask.expiresAt - ask.startedAt;
    const where = () =>
      [this.windowOpen() ? 'in the Porthole window' : '', request.asker ? 'in your MCP client' : '']
        .filter(Boolean)
        .join(' or ') || 'in the Porthole window';
    const pending = { ask, grantKey } as PendingAsk;
    pending.settled = new Promise<Gate>((resolve) => {
      const waiting = () => {
        const left = Math.max(0, Math.ceil((ask.expiresAt - Date.now()) / 1000));
        try {
          request.onWaiting?.(
            `waiting for the user to allow ${tool.name} ${where()} (${left} s left; no answer is a denial)`,
          );
        } catch {
          // the caller's own notice; it does not decide anything
        }
      };
      const notices = setInterval(waiting, WAITING_NOTICE_MS);
      notices.unref?.();
      const finish = (gate: Gate) => {
        if (!this.pending.delete(ask.id)) return;
        clearTimeout(timer);
        clearInterval(notices);
        request.signal.removeEventListener('abort', onAbort);
        this.closers.get(ask.id)?.();
        this.closers.delete(ask.id);
        this.remember(ask, grantKey, gate);
        this.deps.bus.emit('permission:settled', { askId: ask.id, callId: ask.callId, decision: gate.decision });
        resolve(gate);
      };
      pending.settle = finish;
      const timer = setTimeout(
        () =>
          finish({
            allowed: false,
            decision: { outcome: 'timed-out', by: 'timeout' },
            message: `${tool.name} was not run: nobody answered the permission prompt ${where()} within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}. Ask the user to answer it, then call ${tool.name} again.`,
          }),
        timeoutMs,
      );
      timer.unref?.();
      // The caller gave up: the call ends as cancelled (the service sees the signal), the prompt goes away.
      // A 2026-07-28 question outlives its first request (the retry answers it), so it is not tied to that signal.
      const onAbort = () => finish({ allowed: true });
      if (request.asker?.kind !== 'input-required') request.signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(ask.id, pending);
      this.deps.bus.emit('permission:ask', { ask });
      waiting();
    });
    return pending.settled;
  }

  /** Answers of the last while, for a 2026-07-28 retry that comes after the window answered. */
  private remember(ask: PermissionAsk, grantKey: string, gate: Gate): void {
    const askId = ask.id;
    this.recent.set(askId, { grantKey, gate, callId: ask.callId });
    if (this.recent.size > MAX_RECENT_ANSWERS) this.recent.delete(this.recent.keys().next().value as string);
  }

  /**
   * An answer to a question: from the window (`where` window), or from the MCP client's prompt. False
   * when it was already settled (timed out, answered elsewhere).
   */
  answer(askId: string, answer: AskAnswer, where: 'window' | 'client' = 'window'): boolean {
    const pending = this.pending.get(askId);
    if (!pending) return false;
    const place = where === 'client' ? 'in the MCP client' : 'in the Porthole window';
    if (answer === 'deny') {
      pending.settle({
        allowed: false,
        decision: { outcome: 'declined', by: 'user', where },
        message: `the user declined ${pending.ask.tool} ${place}, so it was not run. Do not call it again unasked: ask the user what they want instead.`,
      });
      return true;
    }
    if (answer === 'allow-once') {
      pending.settle({ allowed: true, decision: { outcome: 'allowed', by: 'user', scope: 'once', where } });
      return true;
    }
    this.grants.set(pending.grantKey, Date.now());
    pending.settle({ allowed: true, decision: { outcome: 'allowed', by: 'user', scope: 'session', where } });
    // The same client waiting on the same tool in other calls is covered by that answer too.
    for (const other of [...this.pending.values()]) {
      if (other.grantKey === pending.grantKey)
        other.settle({ allowed: true, decision: { outcome: 'allowed', by: 'session-grant' } });
    }
    this.deps.bus.emit('permissions:changed', {});
    return true;
  }

  /** The call a question was asked for (open, or answered of late). */
  callOf(askId: string): string | undefined {
    return this.pending.get(askId)?.ask.callId ?? this.recent.get(askId)?.callId;
  }

  /** A window is connected, so a question can be answered. */
  windowOpen(): boolean {
    return this.deps.windows() > 0;
  }

  /** Questions waiting for an answer. */
  asks(): PermissionAsk[] {
    return [...this.pending.values()].map((p) => p.ask);
  }

  /** Ends every question as timed out (the inspector stops). */
  close(): void {
    for (const pending of [...this.pending.values()]) {
      pending.settle({
        allowed: false,
        decision: { outcome: 'timed-out', by: 'timeout' },
        message: `${pending.ask.tool} was not run: the Porthole inspector stopped before the user answered. Ask the user to start it again, then call ${pending.ask.tool} again.`,
      });
    }
  }

  private headless(tool: RegisteredTool): Gate {
    if (this.current.headlessAsk === 'allow') {
      return { allowed: true, decision: { outcome: 'allowed', by: 'headless-setting' } };
    }
    return {
      allowed: false,
      decision: { outcome: 'denied', by: 'headless-setting' },
      message: `${tool.name} needs the user's approval, but no Porthole window is open to ask in, and the inspector is set to deny such calls then. Ask the user to open the Porthole window (the URL \`porthole serve\` printed, or uiUrl in <data-dir>/instance.json) and call ${tool.name} again; they can also allow it in Permissions.`,
    };
  }
}

/** What the policy reads of a tool: its name, annotations and own default. */
export function permissionSubject(tool: RegisteredTool): PermissionSubject {
  const own = tool.definition.defaultPermission;
  return own ? { ...tool.info, defaultPermission: own } : tool.info;
}

/**
 * This call's reason to ask although its tool is allowed by default (the tool's `askWhen`); a
 * check that throws asks too, since it could not tell.
 */
export function perCallAsk(tool: RegisteredTool, args: Record<string, unknown>, ctx: unknown): string | undefined {
  const askWhen = tool.definition.askWhen;
  if (!askWhen) return undefined;
  try {
    return askWhen.check(args, ctx) || undefined;
  } catch (e) {
    return `${tool.info.title}: could not tell whether this call needs approval (${(e as Error).message})`;
  }
}

function readOnlyRefusal(tool: RegisteredTool, source: 'read-only' | 'client-read-only', client?: ClientInfo): Gate {
  return {
    allowed: false,
    decision: { outcome: 'denied', by: 'read-only' },
    message: `${tool.name} is turned off: the user switched the Porthole inspector to read-only for AI agents${source === 'client-read-only' ? ` (for the client "${client?.name}")` : ''}, so tools that change the app or stored data are not available. Read-only tools still work; ask the user to switch read-only off in the Porthole window (Permissions) if you need ${tool.name}.`,
  };
}

/** The question as the MCP client shows it to its user. */
function clientQuestion(ask: PermissionAsk): string {
  const args = JSON.stringify(ask.args) ?? '{}';
  const shown = args.length > 500 ? `${args.slice(0, 499)}…` : args;
  return `Porthole: allow ${ask.tool}${ask.destructive ? ' (destructive)' : ''}? ${ask.change} Arguments: ${shown}`;
}

/** The form a client shows: one choice, Allow once / Allow for this session / Deny. */
export const ASK_FORM: {
  type: 'object';
  properties: { decision: { type: 'string'; title: string; oneOf: { const: AskAnswer; title: string }[] } };
  required: string[];
} = {
  type: 'object',
  properties: {
    decision: {
      type: 'string',
      title: 'Decision',
      oneOf: [
        { const: 'allow-once', title: 'Allow once' },
        { const: 'allow-session', title: 'Allow for this session' },
        { const: 'deny', title: 'Deny' },
      ],
    },
  },
  required: ['decision'],
};

/** The client's answer to ASK_FORM: accept with a decision, else (decline, cancel, anything odd) deny. */
export function askAnswerOf(result: unknown): AskAnswer {
  const { action, content } = (result ?? {}) as { action?: unknown; content?: { decision?: unknown } };
  if (action !== 'accept') return 'deny';
  const decision = content?.decision;
  return decision === 'allow-once' || decision === 'allow-session' ? decision : 'deny';
}

/** Longest arguments (as JSON) the prompt shows whole; a HAR file being imported can be megabytes. */
export const MAX_ASK_ARGS_CHARS = 64 * 1024;

function shownArgs(args: Record<string, unknown>): unknown {
  const json = JSON.stringify(args) ?? '{}';
  if (json.length <= MAX_ASK_ARGS_CHARS) return args;
  return {
    '(not all shown)': `the arguments are ${json.length} characters of JSON; the first ${MAX_ASK_ARGS_CHARS} follow`,
    preview: json.slice(0, MAX_ASK_ARGS_CHARS),
  };
}

/** What a call will change, in words: the tool's own description of it, else what its annotations say. */
export function describeChange(tool: RegisteredTool, args: Record<string, unknown>): string {
  const own = tool.definition.describeChange;
  if (typeof own === 'function') {
    try {
      const text = own(args);
      if (typeof text === 'string' && text) return text;
    } catch {
      // fall back to the annotations
    }
  }
  const { readOnlyHint, destructiveHint } = tool.info.annotations;
  if (readOnlyHint) return `${tool.info.title}: reads data and changes nothing.`;
  if (destructiveHint)
    return `${tool.info.title}: changes the app or the inspector's data and may delete or overwrite some of it.`;
  return `${tool.info.title}: changes the app or the inspector's data (adds to it, deletes nothing).`;
}
