import { resolve } from 'node:path';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const ROOT = resolve(import.meta.dirname, '../../..');
export type McpTransportKind = 'http' | 'stdio';

/** The bearer header for the token, if there is one. */
function httpOptions(target: { token?: string }) {
  const headers: Record<string, string> = target.token ? { authorization: `Bearer ${target.token}` } : {};
  return { requestInit: { headers } };
}

/** `porthole mcp` from this checkout, as a stdio client starts it. */
function portholeMcp(dataDir: string, plugins?: string) {
  return {
    command: process.execPath,
    args: [
      resolve(ROOT, 'bin/porthole.js'),
      'mcp',
      '--data-dir',
      dataDir,
      ...(plugins === undefined ? [] : ['--plugins', plugins]),
    ],
    cwd: ROOT,
    stderr: 'pipe' as const,
  };
}

/** An MCP SDK 1.x client (the 2025 era: initialize, then a session) connected to the core over real Streamable HTTP, or over stdio through `porthole mcp`. */
export async function connectMcpClient(
  kind: McpTransportKind,
  target: { mcpUrl: string; dataDir: string; token?: string /** stdio: `--plugins` */; plugins?: string },
  client = { name: 'porthole-test-client', version: '1.2.3' },
  /** What the client declares (`extensions` for MCP Apps, `elicitation`…). */
  capabilities?: Record<string, unknown>,
): Promise<{ client: Client; stderr: () => string; close(): Promise<void> }> {
  const mcp = new Client(client, capabilities && { capabilities });
  let stderr = '';
  if (kind === 'http') {
    await mcp.connect(new StreamableHTTPClientTransport(new URL(target.mcpUrl), httpOptions(target)));
  } else {
    const transport = new StdioClientTransport(portholeMcp(target.dataDir, target.plugins));
    transport.stderr?.on('data', (d) => (stderr += d));
    await mcp.connect(transport);
  }
  return { client: mcp, stderr: () => stderr, close: () => mcp.close() };
}

/**
 * A v2 SDK client (`@modelcontextprotocol/client`) that negotiates the 2026-07-28 era (no
 * initialize, no session: version and client info in every request's `_meta`), over real
 * Streamable HTTP or over stdio through `porthole mcp`.
 */
export async function connectModernClient(
  kind: McpTransportKind,
  target: { mcpUrl: string; dataDir: string; token?: string /** stdio: `--plugins` */; plugins?: string },
  client = { name: 'porthole-modern-client', version: '2.0.0' },
  /** What the client declares (`extensions` for MCP Apps, `elicitation`…). */
  capabilities?: Record<string, unknown>,
): Promise<{ client: ModernClient; stderr: () => string; close(): Promise<void> }> {
  const mcp = new ModernClient(client, {
    versionNegotiation: { mode: { pin: '2026-07-28' } },
    ...(capabilities && { capabilities }),
  });
  let stderr = '';
  if (kind === 'http') {
    await mcp.connect(new ModernHttpTransport(new URL(target.mcpUrl), httpOptions(target)));
  } else {
    const transport = new ModernStdioTransport(portholeMcp(target.dataDir, target.plugins));
    transport.stderr?.on('data', (d) => (stderr += d));
    await mcp.connect(transport);
  }
  if (mcp.getProtocolEra() !== 'modern') throw new Error(`negotiated the ${mcp.getProtocolEra()} era, not modern`);
  return { client: mcp, stderr: () => stderr, close: () => mcp.close() };
}
