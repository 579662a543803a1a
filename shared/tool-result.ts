/** One block of a tool's answer. New kinds (audio, resource links) are added here and as factories below. */
export type ToolContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/**
 * What a tool answers with, owned by Porthole so plugin code never sees MCP SDK types.
 * Built only through the factories: `text`, `json`, `image`, `error`.
 */
export class ToolResult {
  private constructor(
    readonly content: readonly ToolContent[],
    readonly structuredContent: Record<string, unknown> | undefined,
    readonly isError: boolean,
  ) {}

  static text(text: string): ToolResult {
    return new ToolResult([{ type: 'text', text }], undefined, false);
  }

  /** Structured JSON, mirrored into one text block for clients that read only text. */
  static json(value: Record<string, unknown>): ToolResult {
    return new ToolResult([{ type: 'text', text: JSON.stringify(value, null, 2) }], value, false);
  }

  /** An image as base64 (no data: prefix). Images go in content, never in structuredContent. */
  static image(base64: string, mimeType: string, caption?: string): ToolResult {
    const content: ToolContent[] = [{ type: 'image', data: base64, mimeType }];
    if (caption) content.push({ type: 'text', text: caption });
    return new ToolResult(content, undefined, false);
  }

  /** A failure the agent should read: say what went wrong and what to do next. */
  static error(message: string): ToolResult {
    return new ToolResult([{ type: 'text', text: message }], undefined, true);
  }
}

export const { text, json, image, error } = {
  text: ToolResult.text,
  json: ToolResult.json,
  image: ToolResult.image,
  error: ToolResult.error,
};

export function isToolResult(value: unknown): value is ToolResult {
  return value instanceof ToolResult;
}
