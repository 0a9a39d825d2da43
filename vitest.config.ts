import { configDefaults, defineConfig } from "vitest/config";

// .ci/run's second Node line sets PRESSROOM_BROWSER_SUITES=off: the dashboard's suites (test/
// dashboard/, Chromium from npm, the same browser on both lines) run on the first line only;
// everything else, the server under that Node included, runs on both.
const browserSuites = process.env.PRESSROOM_BROWSER_SUITES !== "off";

export default defineConfig({
  // Vitest keeps each file's last duration here and starts the longest files first (unknown ones
  // by size): on 2 workers, the last long file no longer starts when the other worker is idle.
  // Under test-output/, not node_modules/.vite, so the second Node line of .ci/run (after its
  // `npm ci`) starts from the first line's durations.
  cacheDir: "test-output/vite-cache",
  test: {
    include: ["test/**/*.test.ts"],
    exclude: browserSuites
      ? configDefaults.exclude
      : [...configDefaults.exclude, "test/dashboard/**"],
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
