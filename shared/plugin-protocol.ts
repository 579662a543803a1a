import type { z } from 'zod';
import { RequestError } from './protocol/messenger.js';

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

/** Major version of a semver string, or the whole string when it is not semver. */
export function majorOf(version: string): string {
  return version.split('.')[0] ?? version;
}

export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
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
