import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from '../../../electron/host/test-cleanup.js';
import { waitFor } from '../../../electron/host/testing.js';
import { SECRET_KEY_NAMES } from '../../../shared/redaction.js';
import { SECRET_SAMPLES } from '../../../shared/secret-samples-testing.js';
import { httpServer, startNetworkDebuggee } from './testing.js';

// The default redaction (the "Smaller" list of issue 30): what an MCP client gets of captured
// traffic hides every secret key name of shared/redaction.ts (headers, query, JSON and form bodies)
// and every token shape (in URLs, header values and bodies); the window keeps it all.

describe('default redaction of captured traffic, for an MCP client', () => {
  const defer = cleanupAfterEach();

  it('hides the secret names and token shapes of shared/redaction.ts in headers, query and bodies', async () => {
    const tokens = Object.values(SECRET_SAMPLES).flat();
    const secretOf = (i: number) => `s3cr3t-value-${i}`;
    const responseBody = JSON.stringify({
      ok: true,
      keys: Object.fromEntries(SECRET_KEY_NAMES.map((name, i) => [name, secretOf(i)])),
      nested: { clientSecret: secretOf(1000), list: [{ refreshToken: secretOf(1001) }] },
      notes: tokens.map((t, i) => `note ${i}: ${t}`),
    });
    const server = await httpServer((_req, res) =>
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'x-auth-token': secretOf(2000),
          'x-csrf-token': secretOf(2001),
          'x-trace': `trace ${SECRET_SAMPLES['GitHub token']![0]}`,
        })
        .end(responseBody),
    );
    defer(() => server.close());
    const d = await startNetworkDebuggee();
    defer(() => d.stop());

    const query = `access_token=${secretOf(3000)}&Client-Secret=${secretOf(3001)}&page=2`;
    await fetch(`${server.url}/login?${query}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-api-key': secretOf(4000),
        'x-amz-security-token': secretOf(4001),
        'x-note': `key ${SECRET_SAMPLES['Stripe secret or restricted key']![0]}`,
      },
      body: `user=ann&password=${secretOf(5000)}&otp=${secretOf(5001)}`,
    }).then((r) => r.text());
    const [tx] = await waitFor(() => {
      const done = d.host.transactions().filter((t) => t.state === 'complete');
      return done.length === 1 && done;
    }, 'the request');

    const answer = await (await import('../../../electron/host/mcp/mcp-testing.js')).connectMcpClient('http', {
      mcpUrl: d.t.urls.mcpUrl,
      dataDir: d.t.dataDir,
      token: d.t.core.mcp.token(),
    });
    defer(() => answer.close());
    const got = await answer.client.callTool({
      name: 'network_get_transaction',
      arguments: { id: tx!.id, maxBodyChars: 1_000_000 },
    });
    const seen = JSON.stringify(got);
    const secrets = [
      ...SECRET_KEY_NAMES.map((_, i) => secretOf(i)),
      ...[1000, 1001, 2000, 2001, 3000, 3001, 4000, 4001, 5000, 5001].map(secretOf),
      ...tokens.map((t) => t.slice(8, 20)),
    ];
    for (const secret of secrets) expect(seen, secret).not.toContain(secret);
    for (const kept of ['page=2', 'user=ann', 'note 0: ', 'trace ', 'key ']) expect(seen).toContain(kept);

    // The window keeps everything.
    const full = JSON.stringify(d.host.get(tx!.id));
    for (const secret of [secretOf(2000), secretOf(4000), secretOf(5000), tokens[0]!]) expect(full).toContain(secret);
  });
});
