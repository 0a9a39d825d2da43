// @ts-check
import { defineConfig } from "astro/config";

// Every setting from the environment is optional; the test builds into a scratch directory
// (ASTRO_OUT_DIR) and keeps the content cache there too (ASTRO_CACHE_DIR), as a CI cache would.
const env = process.env;
export default defineConfig({
  site: env.SITE_URL ?? "https://blog.example.com",
  ...(env.ASTRO_OUT_DIR ? { outDir: env.ASTRO_OUT_DIR } : {}),
  ...(env.ASTRO_CACHE_DIR ? { cacheDir: env.ASTRO_CACHE_DIR } : {}),
  trailingSlash: "ignore",
  vite: {
    // In this monorepo the root node_modules holds Express's cookie 0.7, which the build's
    // prerender chunk would find first; bundle the cookie 2 Astro depends on instead. A site
    // of its own (one Astro install at its root) needs no such line.
    environments: { prerender: { resolve: { noExternal: ["cookie"] } } },
  },
});
