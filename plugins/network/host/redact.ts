import { REDACTED, type Transaction } from '../protocol.js';

/** The transaction with the header values the app hid from MCP (redaction scope `mcp`) redacted, for MCP answers and exports. */
export function redactSensitive(tx: Transaction): Transaction {
  if (!tx.sensitiveHeaders?.length) return tx;
  const hidden = new Set(tx.sensitiveHeaders.map((h) => h.toLowerCase()));
  const redact = (headers: Transaction['request']['headers']) =>
    headers.map((h) => (hidden.has(h.name.toLowerCase()) ? { name: h.name, value: REDACTED } : h));
  return {
    ...tx,
    request: { ...tx.request, headers: redact(tx.request.headers) },
    response: tx.response && { ...tx.response, headers: redact(tx.response.headers) },
  };
}
