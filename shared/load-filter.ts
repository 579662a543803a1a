import { z } from 'zod';

// `sinceLoad` on list tools: DevTools' "preserve log" turned off on demand. Loads are the app's runs
// in a session (page loads, process starts), numbered from 1 (SessionInfo.load.seq).

export const SinceLoadSchema = z
  .number()
  .int()
  .optional()
  .describe('From an app load (page load, process start) on: 0 this one, -1 the previous, N load N.');

/** The first load number `sinceLoad` keeps, given the session's current load; undefined keeps all. */
export function firstLoadOf(sinceLoad: number | undefined, current: number | undefined): number | undefined {
  if (sinceLoad === undefined || current === undefined) return undefined;
  return sinceLoad > 0 ? sinceLoad : Math.max(1, current + sinceLoad);
}
