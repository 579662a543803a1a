import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellQuote, toCurl, toFetch } from './snippets.js';

const request = {
  method: 'POST',
  url: "http://api.test/it's?q=1",
  headers: [
    { name: 'content-type', value: 'application/json' },
    { name: 'host', value: 'api.test' },
    { name: 'x-quote', value: `it's "quoted"` },
  ],
  body: { encoding: 'text' as const, data: `{"msg":"it's"}`, size: 14, truncated: false },
};

describe('snippets', () => {
  it('writes a cURL command the shell reads back exactly', () => {
    const curl = toCurl(request);
    expect(curl).toContain("curl -X 'POST'");
    expect(curl).not.toContain('host:');
    // Let a real shell parse the command (with `curl` replaced by printf) and compare the arguments.
    const args = execFileSync('sh', ['-c', curl.replace(/^curl/, "printf '%s\\n'")], { encoding: 'utf8' }).split('\n');
    expect(args).toEqual([
      '-X',
      'POST',
      "http://api.test/it's?q=1",
      '-H',
      'content-type: application/json',
      '-H',
      `x-quote: it's "quoted"`,
      '--data-raw',
      `{"msg":"it's"}`,
      '',
    ]);
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
  });

  it('sends a binary body through base64 and flags truncated and redacted parts', () => {
    const curl = toCurl({
      method: 'PUT',
      url: 'http://api.test/blob',
      headers: [{ name: 'authorization', value: '[redacted]' }],
      body: { encoding: 'base64', data: 'AAEC/w==', size: 4, truncated: true },
    });
    expect(curl).toContain("printf %s 'AAEC/w==' | base64 -d | curl -X 'PUT'");
    expect(curl).toContain('--data-binary @-');
    expect(curl).toContain('# the body was truncated');
    expect(curl).toContain('# replace [redacted]');
  });

  it('writes a fetch call that evaluates to the same request', () => {
    const code = toFetch(request);
    const calls: unknown[][] = [];
    const run = new Function('fetch', `return (async () => { ${code} })()`);
    run((...args: unknown[]) => calls.push(args));
    expect(calls).toEqual([
      [
        "http://api.test/it's?q=1",
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-quote': `it's "quoted"` },
          body: `{"msg":"it's"}`,
        },
      ],
    ]);
  });
});
