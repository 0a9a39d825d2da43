import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/setup-file.ts"],
    testTimeout: 30_000,
    // expect.poll waits for a condition (a list no longer busy, a row's new text); vitest gives
    // up after 1 s by default, which a loaded machine outlasts (a dashboard list stayed
    // aria-busy longer while the embedded database answered its counts). Half the test's time.
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 180_000,
    // Each file gets its own database; files run in parallel on the 2 cores CI has.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
