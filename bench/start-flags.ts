import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The node flags of `npm start` (package.json "start"), read from there so the two agree. */
export const NODE_FLAGS: string[] = (() => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const start = / node ((?:--[\w-]+=\S+ )*)server\/bin\/pressroom\.js start/.exec(
    pkg.scripts.start ?? "",
  );
  if (start === null) throw new Error('package.json "start" no longer runs node … pressroom.js');
  return (start[1] ?? "")
    .trim()
    .split(" ")
    .filter((f) => f !== "");
})();
