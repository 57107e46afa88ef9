import { defineConfig } from 'vitest/config';

// Browser tests: the BUILT server (apps/server/dist) and web app (apps/web/dist) driven by a real
// Chromium. Run by `node scripts/test.mjs --only e2e`, which builds first.
export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('../..', import.meta.url).pathname,
    include: ['tests/e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
