import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/setup-file.ts"],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // Each file gets its own database; files run in parallel on the 2 cores CI has.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
