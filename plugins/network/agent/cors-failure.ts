import type { Observation } from './observed.js';

// Why the browser failed a cross-origin request it tells the page nothing of (browser.ts failed()),
// loaded the first time one fails: when the server did answer (its resource timing entry, which the
// browser gives only with Timing-Allow-Origin) a CORS refusal, else a CORS refusal or a network error.

export function explainFailure(obs: Observation, error: unknown, url: string, startedAt: number, origin: string): void {
  try {
    const entries = performance.getEntriesByName(url, 'resource') as PerformanceResourceTiming[];
    const entry = entries.reverse().find((e) => e.startTime >= startedAt - 5);
    const status = (entry as { responseStatus?: number } | undefined)?.responseStatus ?? 0;
    if (entry && (status > 0 || entry.responseStart > 0)) {
      const cors = new Error(
        `CORS: ${origin} may not read the answer of ${new URL(url).origin}${status ? ` (it answered ${status})` : ''}; the server must allow this origin (Access-Control-Allow-Origin)`,
      );
      return obs.fail(Object.assign(cors, { code: 'CORS' }));
    }
  } catch {
    // resource timing unavailable: the browser's words stand
  }
  const said = (error as { message?: unknown } | undefined)?.message;
  obs.fail(
    Object.assign(
      new Error(
        `${typeof said === 'string' ? `${said}: ` : ''}a CORS refusal (${new URL(url).origin} did not allow ${origin}: Access-Control-Allow-Origin) or a network error; the browser does not tell the page which (its console does)`,
      ),
      { code: 'CORS_OR_NETWORK' },
    ),
  );
}
