import { z } from 'zod';
import { CallSurfaceSchema, ClientInfoSchema } from './tool.js';

/**
 * Agent permissions: what an AI agent (an MCP client) may do, tool by tool, as the person at the
 * window set it. The window's own tool runner is never gated. Stored in `<data-dir>/permissions.json`.
 */
export const PermissionSchema = z.enum(['allow', 'ask', 'deny']);
export type Permission = z.infer<typeof PermissionSchema>;

const toolName = z.string().min(1).max(64);
const ToolPermissionsSchema = z.record(toolName, PermissionSchema);

/** A stricter (or looser) policy for one MCP client, by the name it gives in `initialize`. */
export const ClientPolicySchema = z.object({
  /** Denies every tool that changes something, for this client (the global switch applies anyway). */
  readOnly: z.boolean().default(false),
  tools: ToolPermissionsSchema.default({}),
});
export type ClientPolicy = z.infer<typeof ClientPolicySchema>;

export const DEFAULT_ASK_TIMEOUT_MS = 60_000;

export const PermissionPolicySchema = z.object({
  version: z.literal(1).default(1),
  /** The read-only switch: every tool not annotated read-only is denied, whatever `tools` says. */
  readOnly: z.boolean().default(false),
  /** Per tool; a tool not named here gets its default (allow, or ask for the few tools that say so). */
  tools: ToolPermissionsSchema.default({}),
  /** Per MCP client name: its entries replace the global ones for that client. */
  clients: z.record(z.string().min(1).max(200), ClientPolicySchema).default({}),
  /** How long an `ask` waits for the person at the window; no answer is a denial. */
  askTimeoutMs: z
    .number()
    .int()
    .min(50)
    .max(30 * 60_000)
    .default(DEFAULT_ASK_TIMEOUT_MS),
  /** What `ask` does when no window is open to ask in (headless without a browser). */
  headlessAsk: z.enum(['deny', 'allow']).default('deny'),
});
export type PermissionPolicy = z.infer<typeof PermissionPolicySchema>;
export type PermissionPolicyInput = z.input<typeof PermissionPolicySchema>;

export const DEFAULT_POLICY: PermissionPolicy = PermissionPolicySchema.parse({});

/** What the policy needs to know of a tool. */
export interface PermissionSubject {
  name: string;
  annotations: { readOnlyHint?: boolean };
  /** The tool's own default, when it asks unless set otherwise. */
  defaultPermission?: Permission;
}

/** Why a tool has the permission it has. */
export const PermissionSourceSchema = z.enum(['default', 'tool', 'client', 'read-only', 'client-read-only']);
export type PermissionSource = z.infer<typeof PermissionSourceSchema>;

export interface EffectivePermission {
  permission: Permission;
  source: PermissionSource;
}

export function isReadOnlyTool(tool: PermissionSubject): boolean {
  return tool.annotations.readOnlyHint === true;
}

/**
 * The default of a tool with no entry: allowed, read-only tools and tools that change things alike,
 * unless the tool asks by default (e.g. one that dispatches to the app's state).
 */
export function defaultPermission(tool: PermissionSubject): Permission {
  return tool.defaultPermission ?? 'allow';
}

/**
 * The permission one client has for one tool. The read-only switch (global or the client's) wins
 * for tools that change something; then the client's entry, the global entry, the default.
 */
export function effectivePermission(
  policy: PermissionPolicy,
  tool: PermissionSubject,
  clientName?: string,
): EffectivePermission {
  const client =
    clientName !== undefined && Object.hasOwn(policy.clients, clientName) ? policy.clients[clientName] : undefined;
  if (!isReadOnlyTool(tool)) {
    if (policy.readOnly) return { permission: 'deny', source: 'read-only' };
    if (client?.readOnly) return { permission: 'deny', source: 'client-read-only' };
  }
  const own = client && Object.hasOwn(client.tools, tool.name) ? client.tools[tool.name] : undefined;
  if (own) return { permission: own, source: 'client' };
  const global = Object.hasOwn(policy.tools, tool.name) ? policy.tools[tool.name] : undefined;
  if (global) return { permission: global, source: 'tool' };
  return { permission: defaultPermission(tool), source: 'default' };
}

export const PermissionPresetSchema = z.enum(['defaults', 'ask-before-changes']);
export type PermissionPreset = z.infer<typeof PermissionPresetSchema>;

/**
 * `defaults`: every tool back to its default, the read-only switch off. `ask-before-changes`: every
 * tool that changes something asks first (read-only tools keep their entries). Client overrides,
 * the timeout and the headless behaviour are kept.
 */
export function applyPreset(
  policy: PermissionPolicy,
  preset: PermissionPreset,
  tools: readonly PermissionSubject[],
): PermissionPolicy {
  if (preset === 'defaults') return { ...policy, readOnly: false, tools: {} };
  const next = { ...policy.tools };
  for (const tool of tools) if (!isReadOnlyTool(tool)) next[tool.name] = 'ask';
  return { ...policy, tools: next };
}

/** The surfaces the policy applies to: everything but the window's own tool runner. */
export function isGatedSurface(surface: z.infer<typeof CallSurfaceSchema>): boolean {
  return surface !== 'ui';
}

// ---------------------------------------------------------------------------------------------
// Decisions, as the call history records them

export const DecisionOutcomeSchema = z.enum(['allowed', 'denied', 'declined', 'timed-out']);
/**
 * Who decided: `user` at the window (`scope: session` when they allowed it for the client's
 * session), `session-grant` an earlier "allow for this session", `policy` a deny entry,
 * `read-only` the read-only switch, `timeout` nobody answered, `headless-setting` no window was open.
 */
export const DecisionBySchema = z.enum(['user', 'session-grant', 'policy', 'read-only', 'timeout', 'headless-setting']);

export const CallDecisionSchema = z.object({
  outcome: DecisionOutcomeSchema,
  by: DecisionBySchema,
  scope: z.enum(['once', 'session']).optional(),
});
export type CallDecision = z.infer<typeof CallDecisionSchema>;

// ---------------------------------------------------------------------------------------------
// Asking the person at the window

export const AskAnswerSchema = z.enum(['allow-once', 'allow-session', 'deny']);
export type AskAnswer = z.infer<typeof AskAnswerSchema>;

export const PermissionAskSchema = z.object({
  id: z.string(),
  /** The call waiting for the answer, as the history lists it. */
  callId: z.string(),
  tool: z.string(),
  title: z.string(),
  plugin: z.string().optional(),
  surface: CallSurfaceSchema,
  client: ClientInfoSchema.optional(),
  args: z.unknown(),
  /** What the call will change, in words. */
  change: z.string(),
  destructive: z.boolean(),
  startedAt: z.number(),
  expiresAt: z.number(),
});
export type PermissionAsk = z.infer<typeof PermissionAskSchema>;

/** A tool as the Permissions view lists it: its permission for clients without their own entry. */
export const ToolPermissionViewSchema = z.object({
  name: z.string(),
  title: z.string(),
  plugin: z.string().optional(),
  readOnly: z.boolean(),
  destructive: z.boolean(),
  /** The entry in the policy, if any. */
  setting: PermissionSchema.optional(),
  /** The tool's own default, when it is not allow. */
  defaultPermission: PermissionSchema.optional(),
  /** Calls that ask although the tool is allowed by default, in words ("destructive actions"). */
  asksFor: z.string().optional(),
  permission: PermissionSchema,
  source: PermissionSourceSchema,
});
export type ToolPermissionView = z.infer<typeof ToolPermissionViewSchema>;

export const SessionGrantSchema = z.object({ client: z.string(), tool: z.string(), grantedAt: z.number() });

export const PermissionsViewSchema = z.object({
  policy: PermissionPolicySchema,
  tools: z.array(ToolPermissionViewSchema),
  /** Questions waiting for an answer. */
  asks: z.array(PermissionAskSchema),
  /** "Allow for this session" answers in force until the inspector stops. */
  grants: z.array(SessionGrantSchema),
});
export type PermissionsView = z.infer<typeof PermissionsViewSchema>;

/** A decision in words, as the call history shows who decided. */
export function describeDecision(decision: CallDecision): string {
  switch (decision.by) {
    case 'user':
      if (decision.outcome === 'declined') return 'Declined by the user in the window';
      return decision.scope === 'session'
        ? 'Allowed by the user for this client until the inspector stops'
        : 'Allowed once by the user in the window';
    case 'session-grant':
      return 'Allowed: the user allowed it for this client earlier ("for this session")';
    case 'policy':
      return 'Denied by the permissions (the tool is set to deny)';
    case 'read-only':
      return 'Denied by the read-only switch';
    case 'timeout':
      return 'Refused: nobody answered the prompt in time';
    case 'headless-setting':
      return decision.outcome === 'allowed'
        ? 'Allowed: no window was open and the setting allows it then'
        : 'Refused: no window was open to ask, and the setting denies it then';
  }
}
