import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { assertBuiltSdk } from "../support/sdk-build.js";
import { consumerProject, packSdk, run } from "../support/sdk-consumer.js";

/**
 * `imageUrl`, `srcset` and `IMAGE_WIDTHS` as a consumer gets them: exported by the packed
 * package (npm pack of sdk/, installed from the tarball as sdk-package.test.ts does), typed
 * strictly, and working. No server: the functions only build URLs. The project compiles with
 * this repository's TypeScript, so nothing but the tarball's own dependencies is installed.
 */

const CONSUMER = `
import { IMAGE_WIDTHS, type ImageUrlOptions, type ImageWidth, imageUrl, srcset } from "@pressroom/sdk";

const cover = { url: "https://pressroom.example.com/api/consumer/media/med_a1/cover.jpg", width: 700 };
const options: ImageUrlOptions = { fm: "webp", w: 640 };
const widest: ImageWidth = IMAGE_WIDTHS[12]; // a tuple: its last element, typed

// Never called: compile-time proof that the packed types are the spec's, not any.
export function typeErrors(): void {
  // @ts-expect-error 300 is not a MediaWidth
  imageUrl(cover, { w: 300 });
  // @ts-expect-error srcset chooses the widths
  srcset(cover, { w: 320 });
}

let thrown = "";
try {
  imageUrl(cover.url, JSON.parse('{"w": 300}'));
} catch (error) {
  thrown = error instanceof TypeError ? error.message : "not a TypeError";
}

console.log(JSON.stringify({
  url: imageUrl(cover, options),
  relative: imageUrl("/api/consumer/media/med_a1/cover.jpg", { q: 60 }),
  srcset: srcset(cover, { fm: "avif" }),
  widest,
  thrown,
}));
`;

const require = createRequire(import.meta.url);
const TSC = require.resolve("typescript/bin/tsc");

let work: string;

beforeAll(async () => {
  await assertBuiltSdk();
  work = await mkdtemp(path.join(tmpdir(), "pressroom-sdk-media-"));
});

afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

it("the packed SDK exports imageUrl, srcset and IMAGE_WIDTHS, typed", async () => {
  const { tarball, files } = await packSdk(work);
  expect(files).toContain("dist/images.js");
  expect(files).toContain("dist/images.d.ts");
  const project = path.join(work, "app");
  await consumerProject(project, tarball);

  await writeFile(path.join(project, "consumer.ts"), CONSUMER);
  const config = {
    compilerOptions: {
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      module: "NodeNext",
      moduleResolution: "NodeNext",
      target: "ES2022",
      lib: ["ES2022", "DOM"],
      types: [],
      skipLibCheck: false,
      outDir: "out",
    },
    files: ["consumer.ts"],
  };
  await writeFile(path.join(project, "tsconfig.json"), JSON.stringify(config));
  await run(process.execPath, [TSC, "-p", "tsconfig.json"], project);

  const { stdout } = await run(process.execPath, ["out/consumer.js"], project);
  const base = "https://pressroom.example.com/api/consumer/media/med_a1/cover.jpg";
  expect(JSON.parse(stdout)).toEqual({
    url: `${base}?w=640&fm=webp`,
    relative: "/api/consumer/media/med_a1/cover.jpg?q=60",
    srcset: [
      ...[64, 128, 256, 320, 480, 640].map((w) => `${base}?w=${w}&fm=avif ${w}w`),
      `${base}?fm=avif 700w`,
    ].join(", "),
    widest: 2560,
    thrown:
      "imageUrl: w must be one of 64, 128, 256, 320, 480, 640, 768, 960, 1024, 1280, 1536, 1920, 2560; got 300.",
  });
}, 180_000);
