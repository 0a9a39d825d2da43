/**
 * `npm run generate`, after openapi-typescript: writes openapi/generated/admin-limits.ts, the
 * request limits of openapi/admin.yaml as values (openapi/limits-module.ts says why and how).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { LIMITS_OUTPUT, LIMITS_SPEC, limitsModule } from "./limits-module.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const output = path.join(root, LIMITS_OUTPUT);
mkdirSync(path.dirname(output), { recursive: true });
writeFileSync(output, limitsModule(parse(readFileSync(path.join(root, LIMITS_SPEC), "utf8"))));
process.stdout.write(`${LIMITS_OUTPUT} from ${LIMITS_SPEC}\n`);
