import type { z } from 'zod';
import { RequestError } from './protocol/request-error.js';
import { describeIssues } from './zod-issues.js';

export interface RequestSpec {
  params: z.ZodType;
  result: z.ZodType;
}

export interface Direction {
  /** Requests the receiving side answers: method name → params and result schemas. */
  requests?: Record<string, RequestSpec>;
  /** One-way messages: method name → params schema. */
  notifications?: Record<string, z.ZodType>;
}

/**
 * The messages between a plugin's agent part and host part, written once in its `protocol.ts`
 * and used by both ends to validate what crosses the wire.
 */
export interface PluginProtocol {
  id: string;
  /** Semver. Agent and host parts must share the major version. */
  version: string;
  /** What the host sends to the agent. */
  toAgent: Direction;
  /** What the agent sends to the host. */
  toHost: Direction;
  /** Between the host part and its panel in the window (see `PanelApi`). */
  panel?: PanelApi;
}

/**
 * What a plugin's panel may ask its host instance (`requests`, answered by the instance's `panel`
 * handlers) and the events the host publishes for it with `ctx.emit` (`events`: name → data schema).
 * Panel requests are UI plumbing: they are not MCP tool calls and are not recorded in the call history.
 */
export interface PanelApi {
  requests?: Record<string, RequestSpec>;
  events?: Record<string, z.ZodType>;
}

export function definePluginProtocol<const P extends PluginProtocol>(protocol: P): P {
  return protocol;
}

type Requests<D extends Direction> = NonNullable<D['requests']>;
type Notifications<D extends Direction> = NonNullable<D['notifications']>;

export type RequestMethod<D extends Direction> = keyof Requests<D> & string;
export type RequestParams<D extends Direction, M extends RequestMethod<D>> = z.input<Requests<D>[M]['params']>;
export type RequestPayload<D extends Direction, M extends RequestMethod<D>> = z.output<Requests<D>[M]['params']>;
export type RequestResult<D extends Direction, M extends RequestMethod<D>> = z.output<Requests<D>[M]['result']>;
export type NotificationMethod<D extends Direction> = keyof Notifications<D> & string;
export type NotificationParams<D extends Direction, M extends NotificationMethod<D>> = z.input<Notifications<D>[M]>;
export type NotificationPayload<D extends Direction, M extends NotificationMethod<D>> = z.output<Notifications<D>[M]>;

type PanelRequests<P extends PluginProtocol> = P['panel'] extends {
  requests: infer R extends Record<string, RequestSpec>;
}
  ? R
  : Record<never, RequestSpec>;
type PanelEvents<P extends PluginProtocol> = P['panel'] extends { events: infer E extends Record<string, z.ZodType> }
  ? E
  : Record<never, z.ZodType>;
type PanelSpec<P extends PluginProtocol, M extends PanelMethod<P>> = PanelRequests<P>[M] extends RequestSpec
  ? PanelRequests<P>[M]
  : never;
type PanelEventSchema<P extends PluginProtocol, E extends PanelEventName<P>> = PanelEvents<P>[E] extends z.ZodType
  ? PanelEvents<P>[E]
  : never;
export type PanelMethod<P extends PluginProtocol> = keyof PanelRequests<P> & string;
export type PanelParams<P extends PluginProtocol, M extends PanelMethod<P>> = z.input<PanelSpec<P, M>['params']>;
export type PanelPayload<P extends PluginProtocol, M extends PanelMethod<P>> = z.output<PanelSpec<P, M>['params']>;
export type PanelResult<P extends PluginProtocol, M extends PanelMethod<P>> = z.output<PanelSpec<P, M>['result']>;
export type PanelEventName<P extends PluginProtocol> = keyof PanelEvents<P> & string;
export type PanelEventData<P extends PluginProtocol, E extends PanelEventName<P>> = z.output<PanelEventSchema<P, E>>;

/** Major version of a semver string, or the whole string when it is not semver. */
export function majorOf(version: string): string {
  return version.split('.')[0] ?? version;
}

/** Validates a value crossing the wire against its schema; a mismatch is a RequestError with `code`. */
export function parseWire<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
  code: 'invalid-params' | 'handler-error',
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new RequestError(code, `invalid ${what}: ${describeIssues(parsed.error)}`);
}
