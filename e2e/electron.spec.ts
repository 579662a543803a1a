// Smoke test of the desktop app. It needs the Electron binary, which cannot be downloaded on
// offline machines: there it is skipped, saying why.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { _electron as electron, expect, test } from '@playwright/test';
import { connect } from '../agent/index.js';
import { example } from '../plugins/example/agent/index.js';
import { ROOT } from './support/inspector.js';

/** The Electron executable if it is installed, without triggering its lazy download. */
function electronBinary(): string | undefined {
  const dir = join(ROOT, 'node_modules/electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

const binary = electronBinary();
const why =
  'the Electron binary is not installed (it is downloaded from GitHub, unreachable here); run `npx install-electron` where it can be downloaded';
test('the desktop app opens its window, answers over the bridge, lists a session and screenshots itself', async () => {
  if (!binary) console.log(`Electron smoke test skipped: ${why}`);
  test.skip(!binary, why);
  expect(existsSync(join(ROOT, 'out/main/main.js')), 'run npm run build first').toBe(true);
  const dataDir = mkdtempSync(join(tmpdir(), 'porthole-electron-'));
  const app = await electron.launch({
    executablePath: binary,
    args: [ROOT, '--data-dir', dataDir, '--debuggee-port', '0', '--control-port', '0'],
    env: { ...process.env, CI: '1' },
  });
  try {
    const window = await app.firstWindow();
    const snapshot = await window.evaluate(
      () =>
        new Promise<{ ok: boolean; result: { mode: string } }>((resolve) => {
          const bridge = (window as unknown as { portholeBridge: import('../shared/bridge.js').PreloadBridge })
            .portholeBridge;
          const off = bridge.onFrame((frame) => {
            if (frame.type === 'reply' && frame.id === 'smoke') {
              off();
              resolve(frame as never);
            }
          });
          bridge.send({ type: 'request', id: 'smoke', method: 'app.snapshot', params: {} });
        }),
    );
    expect(snapshot).toMatchObject({ ok: true, result: { mode: 'desktop' } });
    expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');

    const instance = JSON.parse(readFileSync(join(dataDir, 'instance.json'), 'utf8'));
    const agent = connect({ url: instance.debuggeeUrl, app: { id: 'smoke', name: 'Smoke App' }, plugins: [example()] });
    await expect.poll(() => agent.status.state).toBe('connected');

    const client = new Client({ name: 'electron-smoke', version: '1.0.0' });
    const token = readFileSync(join(dataDir, 'mcp-token'), 'utf8').trim();
    await client.connect(
      new StreamableHTTPClientTransport(new URL(instance.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const sessions = await client.callTool({ name: 'inspector_list_sessions', arguments: {} });
    expect(JSON.stringify(sessions.structuredContent)).toContain('Smoke App');
    const shot = await client.callTool({ name: 'inspector_screenshot', arguments: {} });
    expect(shot.isError).toBeFalsy();
    const image = (shot.content as { type: string; data: string; mimeType: string }[]).find((c) => c.type === 'image');
    expect(image?.mimeType).toBe('image/png');
    expect(Buffer.from(image!.data, 'base64').subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    await client.close();
    agent.disconnect();
  } finally {
    await app.close();
    expect(existsSync(join(dataDir, 'instance.json'))).toBe(false);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
