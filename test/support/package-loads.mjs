// Preloaded into a CLI process (`NODE_OPTIONS=--import=…`, test/server/cli-loads.test.ts): appends
// the name of each npm package the process resolves a module of, once, to the file that
// PRESSROOM_PACKAGE_LOG names.
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";

const log = process.env.PRESSROOM_PACKAGE_LOG;
const seen = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    // The last node_modules/ of the path: a package nested in another's is logged by its own name.
    const name = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolved.url)?.[1];
    if (log !== undefined && name !== undefined && !seen.has(name)) {
      seen.add(name);
      appendFileSync(log, `${name}\n`);
    }
    return resolved;
  },
});
