import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

/** For `npm run dev -w dashboard`: the Pressroom server the dev server sends /api to. */
const apiTarget = process.env.PRESSROOM_URL ?? "http://127.0.0.1:3000";

// Served by the Pressroom server at /dashboard (it answers dashboard/dist/index.html for every
// /dashboard/* path that is not a file, so client-side routes survive a reload).
export default defineConfig({
  base: "/dashboard/",
  plugins: [preact()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
  },
  server: {
    proxy: {
      "/api": {
        target: apiTarget,
        changeOrigin: true,
        // The admin API refuses state-changing requests whose Origin is not its own; in
        // development the page's origin is this dev server's, so present the target's instead.
        configure: (proxy) => {
          proxy.on("proxyReq", (request) => {
            if (request.getHeader("origin") !== undefined) request.setHeader("origin", apiTarget);
          });
        },
      },
    },
  },
});
