/** One block of a tool's answer. New kinds (audio, resource links) are added here and as factories below. */
export type ToolContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  /** A file the tool wrote (a large artifact), by file: URI; the client reads it if it wants it. */
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string; size?: number };

/**
 * The text block `json()` mirrors its payload into (compact: clients that read only text pay for
 * every byte); the call history uses it to store the payload once.
 */
export function mirrorText(value: Record<string, unknown>): string {
  let text = mirrors.get(value);
  if (text === undefined) mirrors.set(value, (text = JSON.stringify(value)));
  return text;
}
/** Made once per payload (results are not changed after they are made): the history compares with it. */
const mirrors = new WeakMap<object, string>();

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
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new TypeError('ToolResult.json needs a JSON object (MCP structuredContent is always an object)');
    }
    return new ToolResult([{ type: 'text', text: mirrorText(value) }], value, false);
  }

  /** This result with more content blocks after its own (e.g. a resource_link to a file it wrote). */
  with(...blocks: ToolContent[]): ToolResult {
    return new ToolResult([...this.content, ...blocks], this.structuredContent, this.isError);
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

  /** The text blocks joined, e.g. the message of an error result. */
  get textContent(): string {
    return this.content
      .filter((c): c is Extract<ToolContent, { type: 'text' }> => c.type === 'text')
      .map((c) => c.text)
      .join('\n');
  }

  /** A plain copy (what crosses IPC, what the MCP layer sends). */
  toJSON(): { content: ToolContent[]; structuredContent?: Record<string, unknown>; isError: boolean } {
    return {
      content: this.content.map((c) => ({ ...c })),
      ...(this.structuredContent ? { structuredContent: this.structuredContent } : {}),
      isError: this.isError,
    };
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
