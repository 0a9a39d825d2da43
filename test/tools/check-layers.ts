/**
 * The layering rule of server/src (README, "Architecture"): the platform floor
 * (`server/src/platform/`) imports no feature, edge or composition file — only other platform
 * files, packages and the generated spec types. Every import is read by TypeScript's own
 * pre-processor (static, dynamic, `import type` and re-exports alike), so a type-only import up
 * the layers fails as surely as a value import. Run by `npm run lint`; exits 1 and names each
 * offending import.
 *
 * `tsx test/tools/check-layers.ts [root]` checks the tree under `root` (default: this
 * repository), which is how test/server/check-layers.test.ts shows it failing.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export interface LayerViolation {
  /** The importing file, relative to the root. */
  readonly file: string;
  /** The import as written. */
  readonly specifier: string;
  /** The imported file, relative to the root. */
  readonly target: string;
}

const SRC = "server/src";
const PLATFORM = "server/src/platform";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts)$/.test(entry.name) ? [full] : [];
  });
}

const inside = (file: string, dir: string): boolean => {
  const relative = path.relative(dir, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
};

/** Every import of a platform file that reaches server/src outside the platform. */
export function findLayerViolations(root: string): LayerViolation[] {
  const src = path.join(root, SRC);
  const platform = path.join(root, PLATFORM);
  const violations: LayerViolation[] = [];
  for (const file of sourceFiles(platform)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (!specifier.startsWith(".")) continue;
      const target = path.resolve(path.dirname(file), specifier);
      if (inside(target, src) && !inside(target, platform)) {
        violations.push({
          file: path.relative(root, file),
          specifier,
          target: path.relative(root, target),
        });
      }
    }
  }
  return violations;
}

if (
  process.argv[1] !== undefined &&
  fileURLToPath(import.meta.url) === path.resolve(process.argv[1])
) {
  const root = path.resolve(process.argv[2] ?? fileURLToPath(new URL("../..", import.meta.url)));
  const violations = findLayerViolations(root);
  for (const v of violations) {
    console.error(
      `${v.file}: imports ${v.specifier} (${v.target}); the platform imports no feature`,
    );
  }
  if (violations.length > 0) {
    console.error(`check-layers: ${violations.length} import(s) up the layers`);
    process.exit(1);
  }
  console.log(`check-layers: ${PLATFORM} imports nothing above it`);
}
