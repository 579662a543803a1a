import type { IncomingMessage } from 'node:http';
import { PROTOCOL_VERSION_META_KEY, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

/**
 * Whether a POST belongs to the 2026-07-28 era: a message claims it with the protocol version in
 * its `_meta`, or the MCP-Protocol-Version header names a revision after the 2025 ones. The SDK's
 * modern entry classifies such a request again and answers a malformed claim itself; anything
 * else is 2025-era traffic (the SDK's own rule, `isLegacyRequest`, without its cost per request).
 */
export function claimsModernEra(req: Pick<IncomingMessage, 'headers'>, body: unknown): boolean {
  const version = req.headers['mcp-protocol-version'];
  if (typeof version === 'string' && version >= '2026' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return true;
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => {
    const meta = (message as { params?: { _meta?: unknown } } | null)?.params?._meta;
    return typeof meta === 'object' && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
  });
}
