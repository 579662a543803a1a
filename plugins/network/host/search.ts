import type { SafeRegex } from '../../../shared/safe-regex.js';
import { timeSlices } from '../../../shared/time-slice.js';
import {
  type Header,
  REDACTED,
  type SearchPlace,
  type SearchQuery,
  type SearchResult,
  type Transaction,
} from '../protocol.js';
import { searchPattern } from '../search-pattern.js';

function headersMatch(re: SafeRegex, headers: Header[] | undefined): boolean {
  if (!headers) return false;
  for (const h of headers) if (re.test(h.name) || (h.value !== REDACTED && re.test(h.value))) return true;
  return false;
}

/** Text bodies only: a base64 body is binary as far as a search is concerned. */
function bodyMatches(re: SafeRegex, body: Transaction['request']['body']): boolean {
  return body?.encoding === 'text' && re.test(body.data);
}

/** Where in one transaction the pattern matches. */
export function placesOf(re: SafeRegex, tx: Transaction): SearchPlace[] {
  const places: SearchPlace[] = [];
  if (re.test(tx.request.url)) places.push('url');
  if (headersMatch(re, tx.request.headers)) places.push('requestHeaders');
  if (bodyMatches(re, tx.request.body)) places.push('requestBody');
  if (headersMatch(re, tx.response?.headers)) places.push('responseHeaders');
  if (bodyMatches(re, tx.response?.body)) places.push('responseBody');
  return places;
}

/**
 * Every transaction whose URL, headers or bodies (request and response) match, with where. Runs in
 * the host, where the bodies are; the window gets ids and highlights the hits in the detail. The
 * pattern runs in linear time, and a search through hundreds of MB gives the event loop a turn
 * every few milliseconds (the transactions are those stored when it began); `signal` stops it.
 */
export async function searchTransactions(
  transactions: Iterable<Transaction>,
  query: SearchQuery,
  signal?: AbortSignal,
): Promise<SearchResult> {
  const re = searchPattern(query);
  const hits: SearchResult['hits'] = [];
  const pause = timeSlices();
  let searched = 0;
  for (const tx of [...transactions]) {
    const turn = pause();
    if (turn) {
      await turn;
      signal?.throwIfAborted();
    }
    searched++;
    const places = placesOf(re, tx);
    if (places.length > 0) hits.push({ id: tx.id, places });
  }
  return { hits, searched };
}
