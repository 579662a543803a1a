/** An MCP client with a live session (from its initialize request). */
export interface McpClientInfo {
  /** The MCP session id. */
  id: string;
  name: string;
  version: string;
  surface: 'mcp-http' | 'mcp-stdio';
  connectedAt: number;
  lastActivityAt: number;
  /** Tool calls of this client still running. */
  callsInFlight: number;
}

/** What the window shows about the MCP server. */
export interface McpStatus {
  /** False until the core has started (and after it stopped). */
  running: boolean;
  url?: string;
  auth: 'token' | 'none';
  clients: McpClientInfo[];
  /** How an MCP client starts the stdio bridge (`porthole mcp`) for this inspector. */
  stdio: { command: string; args: string[] };
  error?: string;
}
