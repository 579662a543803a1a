import type * as Trace from './trace.js';

export { captureStackTrace, g, nodeMapsStacks, type Prepare, plainStack } from './trace.js';

// trace.ts in React Native's tree (scripts/build-agent-package.js puts it in place): no Node process,
// so console.trace is the app's own, called as is (trace.ts does the same where there is no Node).

export const traceWithoutWrapper: typeof Trace.traceWithoutWrapper = (original, self, args) =>
  original.apply(self, args);
