import { expect, it } from 'vitest';
import { describeIssues } from '../../shared/zod-issues.js';
import { MockMatchSchema } from './protocol.js';

it('refuses regex flags given twice (gg), as RegExp would, and accepts each flag once', () => {
  const match = (flags: string) => MockMatchSchema.safeParse({ url: { kind: 'regex', value: '/api/', flags } });
  const twice = match('gg');
  expect(twice.success).toBe(false);
  expect(describeIssues(twice.error!)).toMatch(/url\.flags: each flag at most once/);
  expect(match('gi').success).toBe(true);
  expect(match('i').success).toBe(true);
});
