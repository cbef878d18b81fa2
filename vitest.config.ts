import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/fastCheckSeed.ts'],
    testTimeout: 120_000,
    // The churn test measures the heap after a full GC.
    execArgv: ['--expose-gc'],
  },
});
