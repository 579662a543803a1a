import { describe, expect, it } from 'vitest';
import { httpConfigs, stdioConfigs } from './configs.js';

describe('copy-ready MCP configs', () => {
  it('start porthole mcp with the exact command, quoting paths with spaces', () => {
    const configs = stdioConfigs({ command: '/usr/bin/node', args: ['/opt/my tools/porthole.js', 'mcp'] });
    expect(configs.map((c) => c.client)).toEqual(['Claude Code', 'Cursor', 'VS Code', 'Claude Desktop']);
    expect(configs[0]!.text).toBe("claude mcp add porthole -- /usr/bin/node '/opt/my tools/porthole.js' mcp");
    expect(JSON.parse(configs[3]!.text)).toEqual({
      mcpServers: { porthole: { command: '/usr/bin/node', args: ['/opt/my tools/porthole.js', 'mcp'] } },
    });
    expect(JSON.parse(configs[2]!.text).servers.porthole.type).toBe('stdio');
  });

  it("carry the environment the desktop app's CLI needs", () => {
    const stdio = {
      command: '/Applications/Porthole.app/Porthole',
      args: ['cli.js', 'mcp'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    };
    const [claudeCode, cursor] = stdioConfigs(stdio);
    expect(claudeCode!.text).toBe(
      'claude mcp add porthole -e ELECTRON_RUN_AS_NODE=1 -- /Applications/Porthole.app/Porthole cli.js mcp',
    );
    expect(JSON.parse(cursor!.text).mcpServers.porthole.env).toEqual({ ELECTRON_RUN_AS_NODE: '1' });
  });

  it('put the bearer token in the HTTP configs only when auth is on', () => {
    expect(httpConfigs('http://127.0.0.1:7361/mcp', 'token', 'T0K')[0]!.text).toContain(
      "--header 'Authorization: Bearer T0K'",
    );
    expect(httpConfigs('http://127.0.0.1:7361/mcp', 'none', 'T0K')[0]!.text).not.toContain('Authorization');
  });

  it('give Cursor an HTTP config and keep the token out of the VS Code workspace file', () => {
    const [, cursor, vscode] = httpConfigs('http://127.0.0.1:7361/mcp', 'token', 'T0K');
    expect(JSON.parse(cursor!.text)).toEqual({
      mcpServers: { porthole: { url: 'http://127.0.0.1:7361/mcp', headers: { Authorization: 'Bearer T0K' } } },
    });
    expect(vscode!.text).not.toContain('T0K');
    const parsed = JSON.parse(vscode!.text);
    expect(parsed.inputs).toEqual([
      expect.objectContaining({ type: 'promptString', id: 'porthole-token', password: true }),
    ]);
    expect(parsed.servers.porthole).toEqual({
      type: 'http',
      url: 'http://127.0.0.1:7361/mcp',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's input reference, literally
      headers: { Authorization: 'Bearer ${input:porthole-token}' },
    });
    expect(vscode!.needsToken).toBe(false);
    expect(JSON.parse(httpConfigs('http://127.0.0.1:7361/mcp', 'none', 'T0K')[2]!.text)).toEqual({
      servers: { porthole: { type: 'http', url: 'http://127.0.0.1:7361/mcp' } },
    });
  });
});
