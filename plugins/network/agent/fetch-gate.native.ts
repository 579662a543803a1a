import type * as Gate from './fetch-gate.js';

// fetch-gate.ts in React Native's tree (scripts/build-agent-package.js puts it in place): no run there
// starts with cached rules (mock-cache.native.ts), so no fetch call is ever held.

export const holdFetch: typeof Gate.holdFetch = () => () => {};
