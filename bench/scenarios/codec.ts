import { decode, encode } from '../../shared/protocol/codec.js';
import type { Message } from '../../shared/protocol/messages.js';
import { defineScenario, latencyRow, sample } from '../harness.js';

/**
 * The codec's guards (depth and value budgets on the raw text, then zod) against bare JSON.stringify
 * + JSON.parse of the same frame: what checking every frame before trusting it costs.
 */
export default defineScenario('link codec', async () => {
  const headers = Array.from({ length: 30 }, (_, i) => ({ name: `x-header-${i}`, value: `value ${i}` }));
  const frames: [string, Message, number][] = [
    ['a 2 KB transaction notification', notification({ url: 'http://shop.test/api/cart', headers, status: 200 }), 5000],
    ['a 1 MB body (one long string)', notification({ body: 'b'.repeat(1024 * 1024) }), 100],
    ['10,000 small objects', notification({ rows: Array.from({ length: 10_000 }, (_, i) => ({ i, ok: true })) }), 50],
  ];
  const rows = [];
  for (const [what, frame, iterations] of frames) {
    const floor = await sample(() => JSON.parse(JSON.stringify(frame)), iterations);
    const codec = await sample(() => decode(encode(frame)), iterations);
    rows.push(latencyRow(`encode + decode: ${what}`, codec, 'JSON.stringify + JSON.parse', floor));
  }
  return rows;
});

function notification(params: unknown): Message {
  return { type: 'notification', plugin: 'network', method: 'completed', params };
}
