import { expect } from 'vitest';
import type { ConsoleErrorsOptions, FailedRequestsOptions } from './expectations.js';
import { portholeMatchers } from './matchers.js';

// `porthole/vitest`: porthole/node's helpers, and `expect(porthole).toHaveNoFailedRequests()` /
// `.toHaveNoConsoleErrors()` registered with Vitest's expect when this module is imported.

expect.extend(portholeMatchers);

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: Vitest's own declaration, which an augmentation must repeat
  interface Matchers<T = any> {
    /** Passes when no request of the app failed or answered ≥ 400 (mock rules' answers excepted); names each that did. */
    toHaveNoFailedRequests(options?: FailedRequestsOptions): Promise<void>;
    /** Passes when the app logged no errors (uncaught, unhandled rejections, console.error); names each it logged. */
    toHaveNoConsoleErrors(options?: ConsoleErrorsOptions): Promise<void>;
  }
}

export { portholeMatchers } from './matchers.js';
export * from './node.js';
