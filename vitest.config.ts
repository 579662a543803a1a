import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{shared,agent,electron,plugins,renderer,bench,scripts,examples,e2e/fixtures}/**/*.test.{ts,tsx}'],
    // Vitest's default leaves a core to itself: on CI's 2 cores, one worker for every file.
    maxWorkers: availableParallelism(),
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
