import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{shared,agent,electron,plugins,renderer,bench,scripts,examples,e2e/fixtures}/**/*.test.{ts,tsx}'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
