/** The options of bench/db-scaling.ts (`npm run bench:db`), and the run they ask for. */
import path from "node:path";
import {
  type OptionSpec,
  optionsOrExit,
  refuseTogether,
  UsageError,
  type Values,
} from "../options.js";
import type { Variant } from "./measures.js";
import type { SamplePlan } from "./variant.js";

const count = (help: string, min: number) =>
  ({ kind: "number", arg: "N", min, integer: true, help }) as const;

const OPTIONS = {
  quick: {
    kind: "flag",
    help: "1,000 and 5,000 blogs, few samples; printed only unless --write",
  },
  sizes: {
    kind: "numbers",
    arg: "N,…",
    min: 42,
    integer: true,
    help: "released blogs per run (1000,10000,50000; 1000,5000 with --quick)",
  },
  only: {
    kind: "string",
    arg: "VARIANT",
    choices: ["patched", "stock"],
    help: "just one variant: patched or stock",
  },
  "stock-sizes": {
    kind: "numbers",
    arg: "N,…",
    min: 42,
    integer: true,
    help: "the --sizes stock FerretDB is measured at (all; at 50,000 it takes many minutes)",
  },
  samples: count("measured requests per kind, patched (40; 10 with --quick)", 1),
  warmup: count("warm-up requests per kind, patched (3; 1 with --quick)", 0),
  "stock-samples": count("measured requests per kind, stock (5; 3 with --quick)", 1),
  "stock-warmup": count("warm-up requests per kind, stock (1)", 0),
  timeout: { kind: "number", arg: "S", min: 1, help: "bound on each request, seconds (120)" },
  "seed-dir": {
    kind: "string",
    arg: "DIR",
    help: "keep the seeded data in DIR/<size>/ and reuse it on later runs",
  },
  "cold-build": {
    kind: "flag",
    help: "also time a cold build of the launcher (empty Go caches, a worktree of HEAD)",
  },
  launcher: {
    kind: "string",
    arg: "FILE",
    help: "measure this launcher binary (e.g. one built from another commit, for an A/B) instead of server/embedded-db's; writes nothing",
  },
  write: { kind: "flag", help: "with --quick: write its section of BENCHMARKS.md" },
  "no-write": { kind: "flag", help: "print the section, write nothing" },
} satisfies Record<string, OptionSpec>;

const PROGRAM = {
  usage: "npm run bench:db -- [options]  (npx tsx bench/db-scaling.ts [options])",
  summary:
    "The embedded database over HTTP through the whole app, stock FerretDB against the patched\n" +
    "one, at each size; writes its section of BENCHMARKS.md (between the db-scaling markers).",
  options: OPTIONS,
};

export interface ScalingSettings {
  sizes: number[];
  variants: Variant[];
  /** The sizes stock is measured at; undefined: all. */
  stockSizes: number[] | undefined;
  plans: Record<Variant, SamplePlan>;
  timeoutMs: number;
  seedDir: string | undefined;
  coldBuild: boolean;
  /** A launcher binary to measure instead of the one built from server/embedded-db. */
  launcher: string | undefined;
  write: boolean;
}

const defaultSizes = (quick: boolean) => (quick ? [1000, 5000] : [1000, 10_000, 50_000]);

function check(o: Values<typeof OPTIONS>): void {
  refuseTogether("write", "no-write", o.write && o["no-write"], "pick one");
  refuseTogether(
    "launcher",
    "write",
    o.launcher !== undefined && o.write,
    "another build's figures stay out of BENCHMARKS.md",
  );
  const stockOnly = ["stock-sizes", "stock-samples", "stock-warmup"] as const;
  for (const name of stockOnly) {
    const given = o.only === "patched" && o[name] !== undefined;
    refuseTogether("only patched", name, given, "stock FerretDB is not measured");
  }
  for (const name of ["samples", "warmup"] as const) {
    const given = o.only === "stock" && o[name] !== undefined;
    refuseTogether("only stock", name, given, `--${name} is for the patched variant`);
  }
  const sizes = o.sizes ?? defaultSizes(o.quick);
  const stray = o["stock-sizes"]?.filter((n) => !sizes.includes(n)) ?? [];
  if (stray.length > 0) {
    throw new UsageError(`--stock-sizes ${stray.join(",")}: not among --sizes`);
  }
}

/** This process's options (exits 2 on a bad command line). */
export function scalingSettings(): ScalingSettings {
  const o = optionsOrExit(PROGRAM, check);
  const quick = o.quick;
  const sizes = o.sizes ?? defaultSizes(quick);
  return {
    sizes: [...sizes].sort((a, b) => a - b),
    variants:
      o.only === undefined ? ["patched", "stock"] : [o.only === "stock" ? "stock" : "patched"],
    stockSizes: o["stock-sizes"],
    plans: {
      patched: { warmup: o.warmup ?? (quick ? 1 : 3), samples: o.samples ?? (quick ? 10 : 40) },
      stock: { warmup: o["stock-warmup"] ?? 1, samples: o["stock-samples"] ?? (quick ? 3 : 5) },
    },
    timeoutMs: (o.timeout ?? 120) * 1000,
    seedDir: o["seed-dir"] === undefined ? undefined : path.resolve(o["seed-dir"]),
    coldBuild: o["cold-build"],
    launcher: o.launcher === undefined ? undefined : path.resolve(o.launcher),
    write: o.launcher === undefined && (quick ? o.write : !o["no-write"]),
  };
}
