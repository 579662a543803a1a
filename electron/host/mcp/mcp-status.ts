// The MCP server's status as the window sees it: the types come from the bridge contract.
export type { McpClient as McpClientInfo, McpStatus, StdioCommand } from '../../../shared/bridge.js';
