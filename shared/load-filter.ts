import { z } from 'zod';

// `sinceLoad` on list tools: DevTools' "preserve log" turned off on demand. Loads are the app's runs
// in a session (page loads, process starts), numbered from 1 (SessionInfo.load.seq).

export const SinceLoadSchema = z
  .number()
  .int()
  .min(-1000)
  .max(1_000_000)
  .optional()
  .describe('Only this app load (page load, process start) on: 0 this load, -1 the previous one on, N load N on.');

/** The first load number `sinceLoad` keeps, given the session's current load; undefined keeps all. */
export function firstLoadOf(sinceLoad: number | undefined, current: number | undefined): number | undefined {
  if (sinceLoad === undefined || current === undefined) return undefined;
  return sinceLoad > 0 ? sinceLoad : Math.max(1, current + sinceLoad);
}
