import { describe, expect, it } from 'vitest';
import { CONNECT, pluginEntries } from '../scenarios/agent-size.js';
import { bundleSize } from './bundle.js';

const root = new URL('../..', import.meta.url).pathname;

/**
 * Code only Node can run: the `ws` package and the Node taps (plugins/<id>/agent/node.ts and
 * node-*.ts). node-builtins.ts is the exception: it holds the "is this Node?" check that browser
 * code asks too (its loaders run only on Node, and pull no Node module into a bundle).
 */
const NODE_ONLY = /^ws\/|(^|\/)plugins\/[^/]+\/agent\/node(-(?!builtins\.ts$)[\w-]+)?\.ts$/;

describe("a browser app's startup bundle", () => {
  it('holds no Node-only code, for connect() alone and with each plugin', { timeout: 180_000 }, async () => {
    const cases = [{ id: 'connect()', source: '' }, ...pluginEntries()];
    expect(cases.map((c) => c.id)).toContain('network');
    for (const { id, source } of cases) {
      const size = await bundleSize(`${CONNECT}\n${source}`, root);
      expect(size.startupInputs.length, id).toBeGreaterThan(0);
      expect(
        size.startupInputs.filter((f) => NODE_ONLY.test(f)),
        `${id}: Node-only modules in the startup chunks`,
      ).toEqual([]);
    }
  });

  it("keeps connect()'s link out of the startup chunks (it loads at connect)", { timeout: 60_000 }, async () => {
    const size = await bundleSize(CONNECT, root);
    expect(size.startupInputs).toContain('agent/connection.ts');
    expect(size.startupInputs).not.toContain('agent/link.ts');
    expect(size.startupInputs).not.toContain('shared/protocol/messenger.ts');
    expect(size.lazyGzip).toBeGreaterThan(0);
  });

  it('sees Node-only code where it is (the check can fail)', { timeout: 60_000 }, async () => {
    const size = await bundleSize("export { installHttpTap } from './plugins/network/agent/node-http.ts';", root);
    expect(size.startupInputs.some((f) => NODE_ONLY.test(f))).toBe(true);
  });
});
