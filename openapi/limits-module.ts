/**
 * The text of `openapi/generated/admin-limits.ts`: the validation keywords of every JSON request
 * body of openapi/admin.yaml, and of every GET operation's query parameters, as values. openapi-typescript's types (admin.d.ts) carry no runtime
 * values, so a form that wants to refuse what the API refuses (an input's `maxLength`, a
 * password's minimum) would otherwise copy the numbers. `npm run generate` writes the module
 * (openapi/generate-limits.ts) and `npm run check:generated` compares it with this function's
 * output (test/tools/check-generated.ts).
 *
 * Keyed by operationId, then by field name, and typed against admin.d.ts's `operations`: a field
 * renamed in the spec breaks the compile of whoever reads the old name.
 */

/** The spec it reads and the module it makes, relative to the repository's root. */
export const LIMITS_SPEC = "openapi/admin.yaml";
export const LIMITS_OUTPUT = "openapi/generated/admin-limits.ts";

/** The keywords copied, in this order. */
const KEYWORDS = [
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
] as const;
type Keyword = (typeof KEYWORDS)[number];
const LOWER: readonly Keyword[] = ["minLength", "minItems", "minimum"];
const UPPER: readonly Keyword[] = ["maxLength", "maxItems", "maximum"];

interface Limits {
  values: Partial<Record<Keyword, number | string>>;
  items?: Limits;
  /** The fields of an object value (a `RateLimit`'s `requests` and `windowSeconds`). */
  properties?: Record<string, Limits>;
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A local `$ref` ("#/components/schemas/X") resolved in `spec`, repeatedly. */
function resolve(spec: Node, schema: unknown, where: string): Node {
  let node = schema;
  for (let hops = 0; isNode(node) && typeof node.$ref === "string"; hops++) {
    const { $ref: ref, ...siblings } = node;
    if (!ref.startsWith("#/") || hops > 20) throw new Error(`${where}: cannot follow $ref ${ref}`);
    if (KEYWORDS.some((keyword) => keyword in siblings)) {
      throw new Error(`${where}: limits beside $ref ${ref} are not supported here yet`);
    }
    node = ref
      .slice(2)
      .split("/")
      .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
      .reduce<unknown>((at, part) => (isNode(at) ? at[part] : undefined), spec);
  }
  if (!isNode(node)) throw new Error(`${where}: not a schema`);
  return node;
}

/**
 * A union (anyOf/oneOf) holds the bounds every branch that is not `null` shares, at their
 * loosest (the largest maximum, the smallest minimum), and a pattern only when all have the same:
 * what a value accepted by some branch surely satisfies.
 */
function unionOf(branches: Limits[]): Limits {
  const values: Limits["values"] = {};
  for (const keyword of KEYWORDS) {
    const seen = branches.map((b) => b.values[keyword]);
    const first = seen[0];
    if (first === undefined || seen.some((v) => v === undefined)) continue;
    if (keyword === "pattern") {
      if (seen.every((v) => v === first)) values.pattern = first;
    } else {
      const numbers = seen.filter((v): v is number => typeof v === "number");
      if (LOWER.includes(keyword)) values[keyword] = Math.min(...numbers);
      if (UPPER.includes(keyword)) values[keyword] = Math.max(...numbers);
    }
  }
  const objects = branches.map((b) => b.properties);
  const first = objects[0];
  if (first !== undefined && objects.every((o) => o === first))
    return { values, properties: first };
  return { values };
}

/**
 * Whether `node.allOf` holds only conditions (`if`/`then`/`else`): they narrow what the node's
 * own keywords admit, never widen it, so the node's bounds stay true bounds without them.
 */
const onlyConditions = (node: Node): boolean =>
  Array.isArray(node.allOf) &&
  node.allOf.every(
    (member) =>
      isNode(member) && Object.keys(member).every((k) => ["if", "then", "else"].includes(k)),
  );

function limitsOf(spec: Node, schema: unknown, where: string): Limits {
  const node = resolve(spec, schema, where);
  if (("allOf" in node && !onlyConditions(node)) || "not" in node) {
    throw new Error(`${where}: allOf and not are not supported here yet`);
  }
  if (isNode(node.properties)) {
    const properties: Record<string, Limits> = {};
    for (const [name, schema] of Object.entries(node.properties)) {
      properties[name] = limitsOf(spec, schema, `${where}.${name}`);
    }
    return { values: {}, properties };
  }
  const branches = node.anyOf ?? node.oneOf;
  if (Array.isArray(branches)) {
    return unionOf(
      branches
        .map((b, i) => ({ node: resolve(spec, b, `${where}[${i}]`), i }))
        .filter(({ node: b }) => b.type !== "null")
        .map(({ node: b, i }) => limitsOf(spec, b, `${where}[${i}]`)),
    );
  }
  const values: Limits["values"] = {};
  for (const keyword of KEYWORDS) {
    const value = node[keyword];
    if (typeof value === "number" || typeof value === "string") values[keyword] = value;
  }
  return "items" in node
    ? { values, items: limitsOf(spec, node.items, `${where}.items`) }
    : { values };
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name: string): string => (IDENTIFIER.test(name) ? name : JSON.stringify(name));

function literal(limits: Limits): string {
  const parts = KEYWORDS.flatMap((keyword) => {
    const value = limits.values[keyword];
    return value === undefined ? [] : [`${keyword}: ${JSON.stringify(value)}`];
  });
  if (limits.items) parts.push(`items: ${literal(limits.items)}`);
  if (limits.properties) {
    const fields = Object.entries(limits.properties).map(([n, l]) => `${key(n)}: ${literal(l)}`);
    parts.push(`properties: { ${fields.join(", ")} }`);
  }
  return parts.length === 0 ? "{}" : `{ ${parts.join(", ")} }`;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

const HEADER = `/**
 * Generated by openapi/generate-limits.ts from openapi/admin.yaml (\`npm run generate\`). Do not
 * edit: \`npm run check:generated\` fails when this file differs from what the spec generates.
 *
 * The validation keywords of each JSON request body's fields, by operationId: what the admin API
 * refuses, as values a form can enforce while the user types. A field that takes one of several
 * schemas (anyOf/oneOf) has the bounds all its non-null branches share, at their loosest; an
 * object's fields are in \`properties\`.
 */
import type { operations } from "./admin.js";

export interface FieldLimits {
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly items?: FieldLimits;
  readonly properties?: { readonly [field: string]: FieldLimits };
}

type JsonBody<Op extends keyof operations> =
  NonNullable<operations[Op]["requestBody"]> extends { content: { "application/json": infer Body } }
    ? Body
    : never;

type AdminLimits = {
  readonly [Op in keyof operations]?: { readonly [Field in keyof JsonBody<Op>]-?: FieldLimits };
};

type Query<Op extends keyof operations> = NonNullable<operations[Op]["parameters"]["query"]>;

type AdminQueryLimits = {
  readonly [Op in keyof operations]?: { readonly [Name in keyof Query<Op>]-?: FieldLimits };
};
`;

/**
 * The GET operations' query parameters (the path item's and the operation's own), by
 * operationId: what a screen may send as a search or a page size, for example.
 */
function queryLimits(spec: Node, paths: Node): string[] {
  const operations: string[] = [];
  for (const [route, item] of Object.entries(paths)) {
    if (!isNode(item) || !isNode(item.get)) continue;
    const operation = item.get;
    const where = `GET ${route}`;
    const declared = [item.parameters, operation.parameters].flatMap((list) =>
      Array.isArray(list) ? list : [],
    );
    const fields = declared
      .map((parameter, i) => resolve(spec, parameter, `${where} parameter ${i}`))
      .filter((parameter) => parameter.in === "query" && typeof parameter.name === "string")
      .map((parameter) => {
        const name = String(parameter.name);
        return `    ${key(name)}: ${literal(limitsOf(spec, parameter.schema, `${where} ${name}`))},`;
      });
    if (fields.length === 0) continue;
    if (typeof operation.operationId !== "string") throw new Error(`${where}: no operationId`);
    operations.push(`  ${key(operation.operationId)}: {\n${fields.join("\n")}\n  },`);
  }
  return operations;
}

/** The module's text, from the parsed admin.yaml. */
export function limitsModule(spec: unknown): string {
  if (!isNode(spec) || !isNode(spec.paths)) throw new Error("admin.yaml: no paths");
  const operations: string[] = [];
  for (const [route, item] of Object.entries(spec.paths)) {
    if (!isNode(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isNode(operation) || !isNode(operation.requestBody)) continue;
      const where = `${method.toUpperCase()} ${route}`;
      const content = resolve(spec, operation.requestBody, where).content;
      const json = isNode(content) ? content["application/json"] : undefined;
      if (!isNode(json)) continue;
      if (typeof operation.operationId !== "string") throw new Error(`${where}: no operationId`);
      const body = resolve(spec, json.schema, where);
      if (!isNode(body.properties)) throw new Error(`${where}: the body is not an object`);
      const fields = Object.entries(body.properties).map(
        ([name, schema]) =>
          `    ${key(name)}: ${literal(limitsOf(spec, schema, `${where} ${name}`))},`,
      );
      operations.push(`  ${key(operation.operationId)}: {\n${fields.join("\n")}\n  },`);
    }
  }
  const queries = queryLimits(spec, spec.paths);
  return (
    `${HEADER}\nexport const adminLimits = {\n${operations.join("\n")}\n} as const satisfies AdminLimits;\n` +
    `\n/** The query parameters' limits of each GET operation, by operationId. */\n` +
    `export const adminQueryLimits = {\n${queries.join("\n")}\n} as const satisfies AdminQueryLimits;\n`
  );
}
