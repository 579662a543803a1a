import type { z } from 'zod';
import type { consoleTools } from '../../plugins/console/host/tools.js';
import type { exampleTools } from '../../plugins/example/host/index.js';
import type { replayRequest } from '../../plugins/network/host/replay-tool.js';
import type { networkTools } from '../../plugins/network/host/tools.js';
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
type SessionArgument<N extends string> = N extends `inspector_${string}` ? unknown : { sessionId?: string };

/** What a tool takes, as its input schema accepts it (defaults optional). */
export type ToolArgs<N extends ToolName> =
  Tool<N> extends ToolSpec<infer I, infer _O, infer _R, infer _C, N> ? z.input<I> & SessionArgument<N> : never;

/**
 * What a call gives back: the handler's own value for tools that declare an output (not the MCP
 * projection), else the result's content (text and images) as the call history keeps it.
 */
export type ToolValue<N extends ToolName> =
  Tool<N> extends ToolSpec<infer _I, infer O, infer R, infer _C, N>
    ? O extends AnyObject
      ? Awaited<R>
      : ToolResultJson
    : never;

/** Arguments may be left out when every one is optional. */
export type ArgsParameter<N extends ToolName> = {} extends ToolArgs<N> ? [args?: ToolArgs<N>] : [args: ToolArgs<N>];

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

/** `network_list_transactions` → `listTransactions` under `network`; `inspector_*` tools sit on the client itself. */
export type ToolMethods<Prefix extends string> = {
  [N in ToolName as N extends `${Prefix}_${infer Rest}` ? Camel<Rest> : never]: (
    ...args: ArgsParameter<N>
  ) => Promise<ToolValue<N>>;
};
