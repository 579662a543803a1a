import type { McpStatus } from '../../../shared/bridge.js';

export interface ClientConfig {
  id: string;
  client: string;
  /** Where the text goes. */
  where: string;
  text: string;
  /** False when the text never holds the token (copying it needs no reveal). */
  needsToken?: boolean;
}

const SERVER = 'porthole';

/** Copy-ready configs that start `porthole mcp` (stdio) for the usual MCP clients. */
export function stdioConfigs(stdio: McpStatus['stdio']): ClientConfig[] {
  const server = { command: stdio.command, args: stdio.args, ...(stdio.env ? { env: stdio.env } : {}) };
  const envFlags = Object.entries(stdio.env ?? {}).map(([key, value]) => `-e ${shellQuote(`${key}=${value}`)} `);
  return [
    {
      id: 'claude-code',
      client: 'Claude Code',
      where: 'Run in a terminal:',
      text: `claude mcp add ${SERVER} ${envFlags.join('')}-- ${[stdio.command, ...stdio.args].map(shellQuote).join(' ')}`,
    },
    {
      id: 'cursor',
      client: 'Cursor',
      where: 'Add to ~/.cursor/mcp.json (or .cursor/mcp.json in a project):',
      text: json({ mcpServers: { [SERVER]: server } }),
    },
    {
      id: 'vscode',
      client: 'VS Code',
      where: 'Add to .vscode/mcp.json:',
      text: json({ servers: { [SERVER]: { type: 'stdio', ...server } } }),
    },
    {
      id: 'claude-desktop',
      client: 'Claude Desktop',
      where: 'Add to claude_desktop_config.json (Settings → Developer → Edit Config), then restart it:',
      text: json({ mcpServers: { [SERVER]: server } }),
    },
  ];
}

/**
 * The same server over Streamable HTTP, for clients that speak it; `token` is a placeholder until
 * revealed. VS Code's file usually sits in the workspace (and in git), so it never holds the token:
 * an `inputs` prompt asks for it once and VS Code keeps it in its secret storage.
 */
export function httpConfigs(url: string, auth: McpStatus['auth'], token: string): ClientConfig[] {
  const headers = auth === 'token' ? { Authorization: `Bearer ${token}` } : undefined;
  const vscode =
    auth === 'token'
      ? {
          inputs: [
            {
              type: 'promptString',
              id: TOKEN_INPUT,
              description: 'Porthole MCP token (the mcp-token file in its data dir, or Reveal in the Porthole window)',
              password: true,
            },
          ],
          servers: { [SERVER]: { type: 'http', url, headers: { Authorization: `Bearer \${input:${TOKEN_INPUT}}` } } },
        }
      : { servers: { [SERVER]: { type: 'http', url } } };
  return [
    {
      id: 'claude-code-http',
      client: 'Claude Code (HTTP)',
      where: 'Run in a terminal:',
      text: `claude mcp add --transport http ${SERVER} ${url}${headers ? ` --header ${shellQuote(`Authorization: Bearer ${token}`)}` : ''}`,
    },
    {
      id: 'cursor-http',
      client: 'Cursor (HTTP)',
      where: 'Add to ~/.cursor/mcp.json (keep a token out of a project file):',
      text: json({ mcpServers: { [SERVER]: { url, ...(headers ? { headers } : {}) } } }),
    },
    {
      id: 'vscode-http',
      client: 'VS Code (HTTP)',
      where:
        auth === 'token'
          ? 'Add to .vscode/mcp.json; VS Code asks for the token once and keeps it in its secret storage:'
          : 'Add to .vscode/mcp.json:',
      text: json(vscode),
      needsToken: false,
    },
  ];
}

const TOKEN_INPUT = 'porthole-token';

export const TOKEN_PLACEHOLDER = '<token: reveal or copy it above>';

export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
