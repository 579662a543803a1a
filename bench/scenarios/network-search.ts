import { searchTransactions } from '../../plugins/network/host/search.js';
import type { Transaction } from '../../plugins/network/protocol.js';
import { defineScenario, latencyRow, sample } from '../harness.js';

const TRANSACTIONS = 10_000;
const BODY_BYTES = 10 * 1024;
const RUNS = 15;

/** 10,000 transactions with 10 KB JSON-ish response bodies; one in a hundred holds the needle. */
function corpus(): Transaction[] {
  const words = ['order', 'item', 'price', 'customer', 'shipping', 'status', 'total', 'currency', 'sku', 'cart'];
  const filler = (seed: number) => {
    let text = '';
    for (let i = 0; text.length < BODY_BYTES; i++)
      text += `"${words[(seed + i) % words.length]}":${(seed * 31 + i) % 997},`;
    return `{${text.slice(0, BODY_BYTES - 2)}}`;
  };
  return Array.from({ length: TRANSACTIONS }, (_, i) => {
    const data = i % 100 === 7 ? `${filler(i).slice(0, BODY_BYTES - 40)}"note":"Needle-In-Body"}` : filler(i);
    return {
      id: `tx-${i}`,
      seq: i + 1,
      state: 'complete',
      initiator: 'fetch',
      request: {
        method: 'GET',
        url: `https://api.example.test/v1/orders/${i}`,
        headers: [
          { name: 'accept', value: 'application/json' },
          { name: 'user-agent', value: 'bench/1.0' },
        ],
      },
      response: {
        status: 200,
        statusText: 'OK',
        headers: [{ name: 'content-type', value: 'application/json' }],
        body: { encoding: 'text', data, size: data.length, truncated: false, contentType: 'application/json' },
      },
      timing: { startedAt: 1_700_000_000_000 + i, waitMs: 5, durationMs: 9 },
    } satisfies Transaction;
  });
}

/**
 * The panel's search in headers and bodies, run where the bodies are (the host): 10,000
 * transactions with 10 KB bodies (~100 MB of text), case-insensitive. Floor: String.includes
 * with the exact case over the response bodies only, the least any search must do.
 */
export default defineScenario('network: search in headers and bodies, 10k × 10 KB', async () => {
  const transactions = corpus();
  let hits = 0;
  const measured = await sample(async () => {
    hits = (await searchTransactions(transactions, { text: 'needle-in-body' })).hits.length;
  }, RUNS);
  if (hits !== TRANSACTIONS / 100) throw new Error(`the search found ${hits} transactions, not ${TRANSACTIONS / 100}`);
  const floor = await sample(() => {
    let n = 0;
    for (const tx of transactions) if (tx.response?.body?.data.includes('Needle-In-Body')) n++;
    return n;
  }, RUNS);
  // A regex runs in RE2 (linear in the text whatever the pattern), slower per character than
  // JavaScript's own engine on friendly patterns: this row says how much.
  let regexHits = 0;
  const regex = await sample(async () => {
    regexHits = (await searchTransactions(transactions, { text: 'needle-in-b\\w+', regex: true })).hits.length;
  }, 5);
  if (regexHits !== hits) throw new Error(`the regex search found ${regexHits} transactions, not ${hits}`);
  return [
    latencyRow(
      'search 10k transactions × 10 KB bodies (case-insensitive)',
      measured,
      'String.includes, bodies only',
      floor,
    ),
    latencyRow('the same with a regex, /needle-in-b\\w+/i (RE2)', regex, 'String.includes, bodies only', floor),
  ];
});
