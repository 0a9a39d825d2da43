/**
 * `npm run check:generated`: fails when a generated file (every `x-openapi-ts.output` of
 * redocly.yaml) differs from what openapi-typescript makes of the YAML now.
 *
 * Not `openapi-typescript --check` itself: with several APIs in redocly.yaml, openapi-typescript
 * 7.13.0 generates them concurrently and exits 0 as soon as the first one to finish matches its
 * file (bin/cli.js, checkStaleOutput), so drift in the others passed unnoticed — a stale
 * openapi/generated/admin.d.ts did. Here the same CLI, with the same config, generates every
 * API into a scratch copy of the inputs, and each output is compared with the committed file.
 * So is openapi/generated/admin-limits.ts, the admin API's request limits as values, which
 * openapi/limits-module.ts makes from the scratch copy of admin.yaml.
 *
 * `tsx test/tools/check-generated.ts [ROOT]` checks the checkout at ROOT (default: this one) with this
 * checkout's openapi-typescript; the tests use it on a copy with a file changed on purpose.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { LIMITS_OUTPUT, LIMITS_SPEC, limitsModule } from "../../openapi/limits-module.js";

const HERE = fileURLToPath(new URL("../..", import.meta.url));
const ROOT = path.resolve(process.argv[2] ?? HERE);
const CLI = path.join(HERE, "node_modules", ".bin", "openapi-typescript");

const config = parse(readFileSync(path.join(ROOT, "redocly.yaml"), "utf8")) as {
  apis?: Record<string, { "x-openapi-ts"?: { output?: string } }>;
};
const outputs = Object.entries(config.apis ?? {}).map(([name, api]) => {
  const output = api["x-openapi-ts"]?.output;
  if (output === undefined) throw new Error(`redocly.yaml: API ${name} has no x-openapi-ts.output`);
  return { name, output };
});
outputs.push({ name: "admin limits", output: LIMITS_OUTPUT });

const scratch = mkdtempSync(path.join(os.tmpdir(), "pressroom-generated-"));
try {
  cpSync(path.join(ROOT, "redocly.yaml"), path.join(scratch, "redocly.yaml"));
  cpSync(path.join(ROOT, "openapi"), path.join(scratch, "openapi"), {
    recursive: true,
    filter: (source) => !source.startsWith(path.join(ROOT, "openapi", "generated")),
  });
  execFileSync(CLI, [], { cwd: scratch, stdio: ["ignore", "ignore", "inherit"] });
  writeFileSync(
    path.join(scratch, LIMITS_OUTPUT),
    limitsModule(parse(readFileSync(path.join(scratch, LIMITS_SPEC), "utf8"))),
  );
  const stale = outputs.filter(
    ({ output }) =>
      readFileSync(path.join(scratch, output), "utf8") !==
      readFileSync(path.join(ROOT, output), "utf8"),
  );
  for (const { name, output } of stale) {
    process.stderr.write(`${output} (API ${name}) is not what the YAML generates now\n`);
  }
  if (stale.length > 0) {
    process.stderr.write("Run `npm run generate` and commit the result.\n");
    process.exitCode = 1;
  } else {
    process.stdout.write(
      `generated types up to date: ${outputs.map((o) => o.output).join(", ")}\n`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
