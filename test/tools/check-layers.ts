/**
 * The layering rule of server/src (README, "Architecture"): each floor imports only its own floor
 * and those below it. From the bottom: the platform (`server/src/platform/`), the features (every
 * other folder but the edges), the edges (`consumer/`, `admin/`, `cli/`) and the composition
 * files at the root (`main.ts`, `app.ts`, `stores.ts`, `migrations.ts`), which edges may import
 * (the `Stores` type) as they import each other. So the platform imports no feature, edge or
 * composition file, and a feature no edge or composition file. Every import is read by
 * TypeScript's own pre-processor (static, dynamic, `import type` and re-exports alike), so a
 * type-only import up the floors fails as surely as a value import. Run by `npm run lint`; exits
 * 1 and names each offending import.
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
  /** The rule it breaks. */
  readonly rule: string;
}

const SRC = "server/src";

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

const EDGES = new Set(["consumer", "admin", "cli"]);
const FLOORS = ["platform", "feature", "edge"] as const;
type Floor = (typeof FLOORS)[number];

/** The floor of a file of server/src (the root's composition files share the edges' floor). */
function floorOf(src: string, file: string): Floor {
  const [first, ...rest] = path.relative(src, file).split(path.sep);
  if (rest.length === 0) return "edge";
  if (first === "platform") return "platform";
  return EDGES.has(first ?? "") ? "edge" : "feature";
}

/** Every import of a file of server/src that reaches a floor above its own. */
export function findLayerViolations(root: string): LayerViolation[] {
  const src = path.join(root, SRC);
  const violations: LayerViolation[] = [];
  for (const file of sourceFiles(src)) {
    const floor = FLOORS.indexOf(floorOf(src, file));
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (!specifier.startsWith(".")) continue;
      const target = path.resolve(path.dirname(file), specifier);
      if (!inside(target, src)) continue;
      const targetFloor = floorOf(src, target);
      if (FLOORS.indexOf(targetFloor) > floor) {
        violations.push({
          file: path.relative(root, file),
          specifier,
          target: path.relative(root, target),
          rule:
            floor === 0
              ? "the platform imports no feature"
              : "a feature imports no edge or composition file",
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
    console.error(`${v.file}: imports ${v.specifier} (${v.target}); ${v.rule}`);
  }
  if (violations.length > 0) {
    console.error(`check-layers: ${violations.length} import(s) up the layers`);
    process.exit(1);
  }
  console.log(`check-layers: no file of ${SRC} imports a floor above its own`);
}
