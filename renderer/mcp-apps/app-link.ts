import type {
  McpUiHostContext,
  McpUiInitializeRequest,
  McpUiInitializeResult,
  McpUiToolResultNotification,
} from '@modelcontextprotocol/ext-apps';

/** A tool result as the host hands it to the view (a CallToolResult). */
export type ToolResultParams = McpUiToolResultNotification['params'];

/** The MCP Apps revision the views speak (the ext-apps spec's LATEST_PROTOCOL_VERSION). */
const PROTOCOL_VERSION = '2026-01-26';

interface Rpc {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}

/**
 * The view's side of an MCP App: JSON-RPC 2.0 over postMessage with the host (the
 * `io.modelcontextprotocol/ui` extension). Written out rather than taken from the ext-apps `App`
 * class, which brings the MCP client and all of zod into the page (about 650 KB minified); the
 * e2e test drives this against the ext-apps SDK's own host side (AppBridge).
 */
export class AppLink {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private readonly target: Window;

  /** The arguments of the tool call the view shows (ui/notifications/tool-input). */
  input: Record<string, unknown> | undefined;
  /** The last tool result the host handed over (it may come before a listener is set). */
  result: ToolResultParams | undefined;
  onResult: ((result: ToolResultParams) => void) | undefined;
  onContext: ((context: McpUiHostContext) => void) | undefined;

  constructor(target: Window = window.parent) {
    this.target = target;
    window.addEventListener('message', this.receive);
  }

  /** ui/initialize, then ui/notifications/initialized: after it the host sends the tool's input and result. */
  async connect(appInfo: { name: string; version: string }): Promise<McpUiInitializeResult> {
    if (this.target === window) throw new Error('not in an MCP Apps host: open the view from a client that renders it');
    const params: McpUiInitializeRequest['params'] = {
      appInfo,
      appCapabilities: { availableDisplayModes: ['inline'] },
      protocolVersion: PROTOCOL_VERSION,
    };
    const answer = (await this.request('ui/initialize', params)) as McpUiInitializeResult;
    if (answer.hostContext) this.onContext?.(answer.hostContext);
    this.notify('ui/notifications/initialized', {});
    this.reportSize();
    return answer;
  }

  /** A tool of the same MCP server, called through the host (tools/call). */
  callTool(name: string, args: Record<string, unknown>): Promise<ToolResultParams> {
    return this.request('tools/call', { name, arguments: args }) as Promise<ToolResultParams>;
  }

  /** Tells the host the view's size whenever it changes, so an inline frame fits it. */
  reportSize(): void {
    let last = '';
    const send = () => {
      const el = document.documentElement;
      const size = { width: Math.ceil(el.scrollWidth), height: Math.ceil(el.scrollHeight) };
      const key = `${size.width}x${size.height}`;
      if (key === last) return;
      last = key;
      this.notify('ui/notifications/size-changed', size);
    };
    new ResizeObserver(send).observe(document.body);
    send();
  }

  private request(method: string, params: object): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.post({ jsonrpc: '2.0', id, method, params: params as Record<string, unknown> });
    });
  }

  private notify(method: string, params: object): void {
    this.post({ jsonrpc: '2.0', method, params: params as Record<string, unknown> });
  }

  private post(message: Rpc): void {
    this.target.postMessage(message, '*');
  }

  private readonly receive = (event: MessageEvent): void => {
    if (event.source !== this.target) return;
    const message = event.data as Rpc | undefined;
    if (message?.jsonrpc !== '2.0') return;
    if (message.method === undefined) {
      const waiting = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
      if (!waiting) return;
      this.pending.delete(message.id as number);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
      return;
    }
    if (message.id !== undefined) {
      // Requests from the host: ping, and teardown (nothing to save).
      const known = message.method === 'ping' || message.method === 'ui/resource-teardown';
      this.post(
        known
          ? { jsonrpc: '2.0', id: message.id, result: {} }
          : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `${message.method} is not handled` } },
      );
      return;
    }
    if (message.method === 'ui/notifications/tool-input') {
      this.input = (message.params as { arguments?: Record<string, unknown> }).arguments;
    } else if (message.method === 'ui/notifications/tool-result') {
      this.result = message.params as ToolResultParams;
      this.onResult?.(this.result);
    } else if (message.method === 'ui/notifications/host-context-changed') {
      this.onContext?.(message.params as McpUiHostContext);
    }
  };
}

/** The page's theme from the host's context (light or dark), as the window's styles read it. */
export function applyTheme(context: McpUiHostContext): void {
  if (context.theme) document.documentElement.dataset.theme = context.theme;
}
