import type * as Cache from './mock-cache.js';

// mock-cache.ts in React Native's tree (scripts/build-agent-package.js puts it in place): React Native
// has neither a page's sessionStorage nor Node's files, so a run starts with no rules until the
// inspector sends them, as it did before.

export const mockCacheFile: typeof Cache.mockCacheFile = () => undefined;
export const readMockCache: typeof Cache.readMockCache = () => undefined;
export const writeMockCache: typeof Cache.writeMockCache = () => {};
export const activeRules: typeof Cache.activeRules = () => false;
