import {
  type Header,
  REDACTED,
  type SearchPlace,
  type SearchQuery,
  type SearchResult,
  type Transaction,
} from '../protocol.js';
import { searchPattern } from '../search-pattern.js';

function headersMatch(re: RegExp, headers: Header[] | undefined): boolean {
  if (!headers) return false;
  for (const h of headers) if (re.test(h.name) || (h.value !== REDACTED && re.test(h.value))) return true;
  return false;
}

/** Text bodies only: a base64 body is binary as far as a search is concerned. */
function bodyMatches(re: RegExp, body: Transaction['request']['body']): boolean {
  return body?.encoding === 'text' && re.test(body.data);
}

/**
 * Every transaction whose URL, headers or bodies (request and response) match, with where. Runs in
 * the host, where the bodies are; the window gets ids and highlights the hits in the detail.
 */
export function searchTransactions(transactions: Iterable<Transaction>, query: SearchQuery): SearchResult {
  const re = searchPattern(query);
  const hits: SearchResult['hits'] = [];
  let searched = 0;
  for (const tx of transactions) {
    searched++;
    const places: SearchPlace[] = [];
    if (re.test(tx.request.url)) places.push('url');
    if (headersMatch(re, tx.request.headers)) places.push('requestHeaders');
    if (bodyMatches(re, tx.request.body)) places.push('requestBody');
    if (headersMatch(re, tx.response?.headers)) places.push('responseHeaders');
    if (bodyMatches(re, tx.response?.body)) places.push('responseBody');
    if (places.length > 0) hits.push({ id: tx.id, places });
  }
  return { hits, searched };
}
