import { readFileSync } from "node:fs";
import { parse } from "yaml";

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The largest JSON text a schema accepts, and how deep it nests arrays and objects. */
export interface BodyBound {
  readonly bytes: number;
  readonly depth: number;
}

export interface OperationBody extends BodyBound {
  readonly operationId: string;
}

/**
 * Every JSON request body of a spec (admin.yaml), with the most bytes a valid one can take when
 * each string character costs `bytesPerChar` (JSON.stringify: at most 6, a control character as
 * `\u00XX`; a client escaping everything: 12, an astral character as two `\u` escapes) and how
 * deep it nests. A string or array without a maximum, or an open object, counts as Infinity.
 */
export function requestBodies(specPath: string, bytesPerChar: number): OperationBody[] {
  const spec = parse(readFileSync(specPath, "utf8")) as Node;
  const resolve = (schema: unknown): Node => {
    let node = schema;
    while (isNode(node) && typeof node.$ref === "string") {
      node = node.$ref
        .slice(2)
        .split("/")
        .reduce<unknown>((at, part) => (isNode(at) ? at[part] : undefined), spec);
    }
    if (!isNode(node)) throw new Error("not a schema");
    return node;
  };
  const bound = (schema: unknown): BodyBound => {
    const node = resolve(schema);
    const branches = node.anyOf ?? node.oneOf;
    if (Array.isArray(branches)) {
      const all = branches.map(bound);
      return {
        bytes: Math.max(...all.map((b) => b.bytes)),
        depth: Math.max(...all.map((b) => b.depth)),
      };
    }
    if (Array.isArray(node.enum)) {
      return { bytes: Math.max(...node.enum.map((v) => JSON.stringify(v).length)), depth: 0 };
    }
    const types = Array.isArray(node.type) ? node.type : [node.type];
    const type = types.find((t) => t !== "null") ?? "null";
    const max = (name: string) => (typeof node[name] === "number" ? Number(node[name]) : Infinity);
    if (type === "string") return { bytes: max("maxLength") * bytesPerChar + 2, depth: 0 };
    if (type === "integer" || type === "number") return { bytes: 24, depth: 0 };
    if (type === "boolean") return { bytes: 5, depth: 0 };
    if (type === "null") return { bytes: 4, depth: 0 };
    if (type === "array") {
      const item = bound(node.items);
      return { bytes: max("maxItems") * (item.bytes + 1) + 2, depth: item.depth + 1 };
    }
    if (type === "object" && isNode(node.properties)) {
      const fields = Object.entries(node.properties).map(([name, s]) => ({ name, ...bound(s) }));
      const open = node.additionalProperties !== false;
      return {
        bytes: open
          ? Infinity
          : fields.reduce((sum, f) => sum + JSON.stringify(f.name).length + 2 + f.bytes, 2),
        depth: Math.max(0, ...fields.map((f) => f.depth)) + 1,
      };
    }
    return { bytes: Infinity, depth: Infinity };
  };
  const out: OperationBody[] = [];
  for (const item of Object.values(isNode(spec.paths) ? spec.paths : {})) {
    if (!isNode(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isNode(operation) || operation.requestBody === undefined) continue;
      const content = resolve(operation.requestBody).content;
      const json = isNode(content) ? content["application/json"] : undefined;
      if (!isNode(json)) continue;
      out.push({ operationId: String(operation.operationId), ...bound(json.schema) });
    }
  }
  return out;
}
