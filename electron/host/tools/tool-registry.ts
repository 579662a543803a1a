import { z } from 'zod';
import {
  ALWAYS_LOAD_META,
  type AnyObject,
  briefSchema,
  MAX_RESULT_SIZE_META,
  schemaBriefs,
  type ToolAnnotations,
  type ToolDefinition,
} from '../../../shared/tool.js';
import { outputSchemaWithSummary } from '../../../shared/tool-summary.js';
import type { EventBus } from '../event-bus.js';
import { compactSchema } from './compact-schema.js';

/** A tool as the window's tools browser lists it: the same JSON Schemas MCP clients see. */
export interface ToolInfo {
  name: string;
  title: string;
  description: string;
  /** The plugin the tool belongs to; absent for the inspector's own `inspector_*` tools. */
  plugin?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations: ToolAnnotations;
  /** Set when the tool asks by default (see ToolSpec.defaultPermission). */
  defaultPermission?: 'ask';
  /** What tools/list carries in the tool's `_meta` (alwaysLoad, maxResultSizeChars). */
  _meta?: Record<string, unknown>;
}

export interface RegisteredTool {
  readonly name: string;
  readonly plugin?: string;
  // biome-ignore lint/suspicious/noExplicitAny: a plugin tool's context names its plugin's instance type
  readonly definition: ToolDefinition<any>;
  /** What callers send: the tool's input, plus the optional `sessionId` of a plugin tool. */
  readonly input: AnyObject;
  readonly output?: AnyObject;
  readonly info: ToolInfo;
}

/**
 * Every plugin tool's `sessionId`. tools/list writes it as a bare string: the server's instructions
 * and inspector_list_sessions say what it is (optional with one connected app), once rather than in
 * each of some 35 tools.
 */
export const SessionIdArgument = briefSchema(z.string().min(1), '').optional();

/** The JSON Schema tools/list serves and the window shows, written once per tool (see compactSchema). */
function jsonSchema(schema: AnyObject, io: 'input' | 'output'): Record<string, unknown> {
  return compactSchema(
    z.toJSONSchema(schema, { target: 'draft-7', io, override: writeBrief }) as Record<string, unknown>,
    io,
  );
}

/** A schema marked with briefSchema becomes its type and its brief (none when the brief is empty). */
function writeBrief({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: Record<string, unknown> }) {
  const brief = schemaBriefs.get(zodSchema)?.brief;
  if (brief === undefined) return;
  const choices = (jsonSchema.oneOf ?? jsonSchema.anyOf) as { type?: unknown }[] | undefined;
  const types = new Set(choices ? choices.map((choice) => choice.type) : [jsonSchema.type]);
  const [type] = types;
  for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
  Object.assign(
    jsonSchema,
    types.size === 1 && typeof type === 'string' ? { type } : {},
    brief ? { description: brief } : {},
  );
}

/** Checks a tool for the registry and derives what it advertises. Throws with the reason it cannot be listed. */
// biome-ignore lint/suspicious/noExplicitAny: see RegisteredTool.definition
export function registeredTool(definition: ToolDefinition<any>, plugin?: string): RegisteredTool {
  const prefix = plugin ? `${plugin}_` : 'inspector_';
  if (!definition.name.startsWith(prefix)) {
    throw new Error(
      `tool ${definition.name} must be named ${prefix}… (${plugin ? `plugin "${plugin}"` : 'host tool'})`,
    );
  }
  if (plugin && 'sessionId' in definition.input.shape) {
    throw new Error(`tool ${definition.name}: "sessionId" is added to every plugin tool by the inspector; remove it`);
  }
  const input = plugin ? definition.input.extend({ sessionId: SessionIdArgument }) : definition.input;
  const output = definition.output;
  let info: ToolInfo;
  try {
    info = {
      name: definition.name,
      title: definition.title,
      description: definition.description,
      plugin,
      inputSchema: jsonSchema(input, 'input'),
      outputSchema: output && outputSchemaWithSummary(jsonSchema(output, 'output')),
      annotations: { ...definition.annotations },
      ...(definition.defaultPermission === 'ask' ? { defaultPermission: 'ask' as const } : {}),
      ...toolMeta(definition),
    };
  } catch (e) {
    throw new Error(`tool ${definition.name}: its schemas cannot be written as JSON Schema: ${(e as Error).message}`);
  }
  return { name: definition.name, plugin, definition, input, output, info };
}

// biome-ignore lint/suspicious/noExplicitAny: see RegisteredTool.definition
function toolMeta(definition: ToolDefinition<any>): { _meta?: Record<string, unknown> } {
  const meta: Record<string, unknown> = {};
  if (definition.alwaysLoad) meta[ALWAYS_LOAD_META] = true;
  if (definition.maxResultSizeChars) meta[MAX_RESULT_SIZE_META] = definition.maxResultSizeChars;
  return Object.keys(meta).length ? { _meta: meta } : {};
}

/** The tool set: host tools plus every enabled plugin's tools. Announces `tools:changed` when it changes. */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();

  constructor(private readonly bus: EventBus) {}

  /** Adds tools (all or none); returns a function that removes them again. */
  add(tools: readonly RegisteredTool[]): () => void {
    for (const tool of tools) {
      if (this.tools.has(tool.name)) throw new Error(`tool ${tool.name} is registered twice`);
    }
    if (new Set(tools.map((t) => t.name)).size !== tools.length) throw new Error('the same tool name appears twice');
    for (const tool of tools) this.tools.set(tool.name, tool);
    if (tools.length > 0) this.bus.emit('tools:changed', {});
    return () => {
      let removed = 0;
      for (const tool of tools) if (this.tools.get(tool.name) === tool && this.tools.delete(tool.name)) removed++;
      if (removed > 0) this.bus.emit('tools:changed', {});
    };
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  list(): RegisteredTool[] {
    return [...this.tools.values()];
  }
}
