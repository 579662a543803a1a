import type { z } from 'zod';
import type { consoleTools } from '../../plugins/console/host/tools.js';
import type { exampleTools } from '../../plugins/example/host/index.js';
import type { replayRequest } from '../../plugins/network/host/replay-tool.js';
import type { limitBody, networkTools } from '../../plugins/network/host/tools.js';
import type { Transaction } from '../../plugins/network/protocol.js';
import type { ToolResultJson } from '../../shared/call-record.js';
import type { AnyObject, ToolSpec } from '../../shared/tool.js';
import type { createHostTools } from '../host/tools/host-tools.js';

// The typed client's view of the built-in tools, derived by the compiler from the tool definitions
// themselves (their zod input schemas and handlers): no second copy of any argument or result type.

type BuiltInTool =
  | ReturnType<typeof createHostTools>[number]
  | (typeof networkTools)[number]
  | typeof replayRequest
  | (typeof consoleTools)[number]
  | (typeof exampleTools)[number];

export type ToolName = BuiltInTool['name'];
type Tool<N extends ToolName> = Extract<BuiltInTool, { name: N }>;

/** Plugin tools take the `sessionId` the inspector adds; `inspector_*` tools do not. */
type SessionArgument<N extends string> = N extends `inspector_${string}`
  ? unknown
  : {
      /** The session to call (inspector_list_sessions); needed when several connected apps have the plugin. */
      sessionId?: string;
    };

/** zod's input of `z.object({})` is `Record<string, never>`, which would refuse `sessionId`: no arguments is `{}`. */
type Plain<T> = string extends keyof T ? {} : T;

/** What a tool takes, as its input schema accepts it (defaults optional). */
export type ToolArgs<N extends ToolName> =
  Tool<N> extends ToolSpec<infer I, infer _O, infer _R, infer _C, N> ? Plain<z.input<I>> & SessionArgument<N> : never;

/** A body as network_get_transaction answers it: `truncatedForOutput` when cut to `maxBodyChars`. */
type AnsweredBody = ReturnType<typeof limitBody>;

/**
 * Tools without an output schema whose answer is one JSON object all the same (the tool's
 * `structuredContent`): the client answers that object. Their types are the handlers' own.
 */
interface JsonAnswers {
  network_get_transaction: {
    transaction: Omit<Transaction, 'request' | 'response'> & {
      request: Omit<Transaction['request'], 'body'> & { body?: AnsweredBody };
      response?: Omit<NonNullable<Transaction['response']>, 'body'> & { body?: AnsweredBody };
    };
    /** With `includeSnippets`: cURL and fetch code that repeat the request. */
    snippets?: { curl: string; fetch: string };
  };
}

/**
 * What a call gives back: the handler's own value for tools that declare an output (not the MCP
 * projection), the JSON object of the tools that answer one, else the result's content (text and
 * images) as the call history keeps it.
 */
export type ToolValue<N extends ToolName> = N extends keyof JsonAnswers
  ? JsonAnswers[N]
  : Tool<N> extends ToolSpec<infer _I, infer O, infer R, infer _C, N>
    ? O extends AnyObject
      ? Awaited<R>
      : ToolResultJson
    : never;

/** Arguments may be left out when every one is optional. */
export type ArgsParameter<N extends ToolName> = {} extends ToolArgs<N> ? [args?: ToolArgs<N>] : [args: ToolArgs<N>];

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

/** A tool as a method: typed arguments, typed value. */
export type ToolMethod<N extends ToolName> = N extends 'network_get_transaction'
  ? {
      /** `responseBodyAsImage: true` answers the image itself (content), not JSON. */
      (args: ToolArgs<N> & { responseBodyAsImage: true }): Promise<ToolResultJson>;
      (args: ToolArgs<N>): Promise<ToolValue<N>>;
    }
  : (...args: ArgsParameter<N>) => Promise<ToolValue<N>>;

/** `network_list_transactions` → `listTransactions` under `network`; `inspector_*` tools sit on the client itself. */
export type ToolMethods<Prefix extends string> = {
  [N in ToolName as N extends `${Prefix}_${infer Rest}` ? Camel<Rest> : never]: ToolMethod<N>;
};
