// MCP clients that come and go, as the Inspector CLI and most scripts do, one after another in this
// process: each a new SDK client that initializes over HTTP, calls inspector_get_status and leaves
// with the SDK's close(), which ends its streams but sends no DELETE: the server keeps its session.
// Usage: node one-shot-mcp-clients.mjs <mcp-url> <count>, the token in MCP_TOKEN. Prints one JSON
// line per client: { i, isError, clients, calledAt, closedAt } (the names the status listed, when
// the call was sent and when close() was done, in ms since the epoch), or { i, error }.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, count] = process.argv.slice(2);
const headers = process.env.MCP_TOKEN ? { authorization: `Bearer ${process.env.MCP_TOKEN}` } : {};
for (let i = 0; i < Number(count); i++) {
  const client = new Client({ name: `one-shot-${i}`, version: '1.0.0' });
  let line;
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    const calledAt = Date.now();
    const status = await client.callTool({ name: 'inspector_get_status', arguments: {} });
    const clients = status.structuredContent?.mcpClients?.map((c) => c.name);
    line = { i, isError: status.isError ?? false, clients, calledAt };
  } catch (e) {
    line = { i, error: String(e) };
  } finally {
    await client.close();
  }
  process.stdout.write(`${JSON.stringify({ ...line, closedAt: Date.now() })}\n`);
}
