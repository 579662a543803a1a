import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { targetOf } from './mock-route.js';

// targetOf reads a call's method and URL before the request exists; Node's own ClientRequest,
// built from the same arguments (never sent), says what they really are.
function nodeTarget(args: unknown[]) {
  const agent = new http.Agent();
  (agent as unknown as { addRequest(): void }).addRequest = () => {}; // never connects
  const last = args.at(-1);
  const withAgent =
    typeof last === 'object' && last !== null && !(last instanceof URL)
      ? [...args.slice(0, -1), { ...last, agent }]
      : [...args, { agent }];
  const req = new http.ClientRequest(...(withAgent as [string]));
  const host = String(req.getHeader('host'));
  return { method: req.method, url: new URL(`${req.protocol}//${host}${req.path}`).href };
}

describe('targetOf', () => {
  const cases: unknown[][] = [
    ['http://127.0.0.1:8080/a/b?x=1'],
    [new URL('http://example.test/path?q=%20')],
    ['http://example.test:80/default-port'],
    [{ host: 'example.test', port: 3000, path: '/p?z=1', method: 'post' }],
    [{ hostname: '::1', port: 4000, path: '/six' }],
    [{ hostname: 'localhost' }],
    ['http://a.test/from-url', { method: 'PUT', path: '/from-options' }],
    [new URL('http://a.test:81/x'), { headers: { 'x-y': '1' } }],
  ];
  for (const args of cases) {
    it(`reads ${JSON.stringify(args)} as Node does`, () => {
      expect(targetOf('http:', args)).toEqual(nodeTarget(args));
    });
  }

  it('gives up (the call then goes to the interception library) on what it cannot read', () => {
    expect(targetOf('http:', [])).toBeUndefined();
    expect(targetOf('http:', ['not a url'])).toBeUndefined();
    expect(targetOf('http:', [{ socketPath: '/tmp/s.sock', path: '/' }])).toBeUndefined();
  });
});
