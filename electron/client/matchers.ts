import {
  type ConsoleErrorsOptions,
  consoleErrorsMessage,
  type FailedRequestsOptions,
  failedRequestsMessage,
} from './expectations.js';
import type { Checks } from './inspector.js';

// `expect(porthole).toHaveNoFailedRequests()` and `.toHaveNoConsoleErrors()` as custom matchers in
// the shape Playwright's and Vitest's `expect.extend` both take: async, `{ pass, message }`, with
// `.not` handled by the runner from `pass`.

export interface MatcherState {
  isNot: boolean;
  utils?: { matcherHint?(name: string, received?: string, expected?: string, options?: { isNot?: boolean }): string };
}

export interface MatcherResult {
  pass: boolean;
  message: () => string;
  name: string;
  expected: unknown;
  actual: unknown;
}

function received(value: unknown, matcher: string): Checks {
  const checks = value as Partial<Checks> | null;
  if (!checks || typeof checks.failedRequests !== 'function' || typeof checks.consoleErrors !== 'function') {
    throw new TypeError(
      `${matcher} checks a Porthole client: expect(porthole).${matcher}() with the fixture's porthole, a service's porthole, or connectInspector()'s client; got ${value === null ? 'null' : typeof value}`,
    );
  }
  return checks as Checks;
}

function hint(state: MatcherState, name: string, options: unknown): string {
  const args = options === undefined ? '' : 'options';
  return (
    state.utils?.matcherHint?.(name, 'porthole', args, { isNot: state.isNot }) ??
    `expect(porthole).${state.isNot ? 'not.' : ''}${name}(${args})`
  );
}

export const portholeMatchers = {
  /** Passes when no request of the app failed or answered ≥ 400 (mock rules' answers excepted); names each that did. */
  async toHaveNoFailedRequests(
    this: MatcherState,
    porthole: unknown,
    options?: FailedRequestsOptions,
  ): Promise<MatcherResult> {
    const name = 'toHaveNoFailedRequests';
    const failures = await received(porthole, name).failedRequests(options);
    return {
      pass: failures.length === 0,
      name,
      expected: [],
      actual: failures,
      message: () =>
        failures.length === 0
          ? `${hint(this, name, options)}\n\nExpected some failed requests, but every request succeeded.`
          : `${hint(this, name, options)}\n\n${failedRequestsMessage(failures)}`,
    };
  },

  /** Passes when the app logged no errors (uncaught, unhandled rejections, console.error); names each it logged. */
  async toHaveNoConsoleErrors(
    this: MatcherState,
    porthole: unknown,
    options?: ConsoleErrorsOptions,
  ): Promise<MatcherResult> {
    const name = 'toHaveNoConsoleErrors';
    const errors = await received(porthole, name).consoleErrors(options);
    return {
      pass: errors.length === 0,
      name,
      expected: [],
      actual: errors,
      message: () =>
        errors.length === 0
          ? `${hint(this, name, options)}\n\nExpected some logged errors, but the app logged none.`
          : `${hint(this, name, options)}\n\n${consoleErrorsMessage(errors)}`,
    };
  },
};
