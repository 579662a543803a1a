import { isLegacyRequest } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { claimsModernEra } from './era-routing.js';

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

const cases: [string, Record<string, string>, unknown][] = [
  [
    'initialize',
    {},
    request(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    }),
  ],
  ['a 2025 call', { 'mcp-protocol-version': '2025-11-25' }, request(2, 'tools/call', { name: 'x', arguments: {} })],
  ['a 2025 notification', {}, { jsonrpc: '2.0', method: 'notifications/initialized' }],
  ['a posted response', {}, { jsonrpc: '2.0', id: 3, result: {} }],
  ['a 2025 batch', {}, [request(4, 'tools/list'), request(5, 'ping')]],
  ['server/discover', { 'mcp-protocol-version': '2026-07-28' }, request(6, 'server/discover', { _meta: envelope })],
  ['a 2026 call', { 'mcp-protocol-version': '2026-07-28' }, request(7, 'tools/call', { name: 'x', _meta: envelope })],
  ['a claim without the header', {}, request(8, 'tools/list', { _meta: envelope })],
  ['a malformed claim', {}, request(9, 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': 7 } })],
  ['a 2026 header without a claim', { 'mcp-protocol-version': '2026-07-28' }, request(10, 'tools/list')],
  ['a batch with one claim', {}, [request(11, 'tools/list'), request(12, 'tools/list', { _meta: envelope })]],
];

describe('which era a POST belongs to', () => {
  it.each(cases)('agrees with the SDK on %s', async (_, headers, body) => {
    const web = new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    expect(claimsModernEra({ headers }, body)).toBe(!(await isLegacyRequest(web, body)));
  });
});
