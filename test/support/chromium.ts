import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { type BrowserContext, chromium } from "playwright-core";

/**
 * The Chromium the browser suites drive: the one npm installs with `@sparticuz/chromium`
 * (a brotli-compressed headless Chromium for Linux x64, unpacked once per version into
 * node_modules/.cache), or the executable `PRESSROOM_CHROMIUM` names. There is no other
 * fallback: nothing on PATH or in system directories is ever looked at.
 */
export interface ChromiumExecutable {
  path: string;
  /** Where it came from: `PRESSROOM_CHROMIUM` or `@sparticuz/chromium@<version>`. */
  source: string;
  /** Extra environment for the browser process (the npm Chromium's own libraries and fonts). */
  env: Record<string, string>;
}

const PACKAGE = "@sparticuz/chromium";

export async function chromiumExecutable(): Promise<ChromiumExecutable> {
  const override = process.env.PRESSROOM_CHROMIUM;
  if (override) {
    if (!existsSync(override)) {
      throw new Error(`PRESSROOM_CHROMIUM=${override}: no such file`);
    }
    return { path: override, source: "PRESSROOM_CHROMIUM", env: {} };
  }
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(
      `${PACKAGE} ships Chromium for Linux x64 only; on ${process.platform}-${process.arch} set PRESSROOM_CHROMIUM to a Chromium or Chrome executable`,
    );
  }
  // The package's entry point is build/index.js; its compressed files sit in bin/ beside build/.
  const root = path.resolve(path.dirname(createRequire(import.meta.url).resolve(PACKAGE)), "..");
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    version: string;
  };
  const dir = await unpacked(root, version);
  return {
    path: path.join(dir, "chromium"),
    source: `${PACKAGE}@${version}`,
    env: {
      // The NSS and expat libraries the binary links against, built for it (a fresh machine
      // may have none), and a font configuration that names only the fonts it ships.
      LD_LIBRARY_PATH: [path.join(dir, "al2023", "lib"), process.env.LD_LIBRARY_PATH]
        .filter(Boolean)
        .join(":"),
      FONTCONFIG_FILE: path.join(dir, "fonts.conf"),
    },
  };
}

/**
 * Unpacks the package's chromium.br, al2023.tar.br (libraries) and fonts.tar.br into
 * node_modules/.cache/pressroom-chromium/<version>, once. Each caller unpacks into its own
 * staging directory and renames it into place, so parallel test files never see half a binary.
 * The package's own `inflate` does the unpacking; it writes under os.tmpdir(), so it runs in a
 * child process whose TMPDIR is the staging directory (the package's default, a shared
 * /tmp/chromium of whatever version got there first, is never used).
 */
async function unpacked(root: string, version: string): Promise<string> {
  const cache = path.join(root, "..", "..", ".cache", "pressroom-chromium");
  const dir = path.join(cache, version);
  if (existsSync(dir)) return dir;
  await mkdir(cache, { recursive: true });
  const staging = await mkdtemp(path.join(cache, `${version}.partial-`));
  const bin = path.join(root, "bin");
  const script = `
    import { inflate } from ${JSON.stringify(pathToFileURL(path.join(root, "build", "index.js")).href)};
    const files = ["chromium.br", "al2023.tar.br", "fonts.tar.br"];
    await Promise.all(files.map((f) => inflate(${JSON.stringify(bin)} + "/" + f)));
  `;
  try {
    await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, TMPDIR: staging },
    });
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
  // The packaged fonts.conf names Lambda's directories (/tmp/fonts); this one names ours.
  const fontsConf = [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
    `<fontconfig><dir>${path.join(dir, "fonts")}</dir><cachedir>${path.join(dir, "fonts-cache")}</cachedir></fontconfig>`,
  ];
  await writeFile(path.join(staging, "fonts.conf"), `${fontsConf.join("\n")}\n`);
  try {
    await rename(staging, dir);
  } catch (err) {
    // Another test file got there first; its copy is complete (it was renamed into place whole).
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(dir)) throw err;
  }
  return dir;
}

/** Headless Chromium with a fresh profile and no background network traffic. */
export async function launchChromium(): Promise<BrowserContext> {
  const exe = await chromiumExecutable();
  const userDataDir = await mkdtemp(path.join(tmpdir(), "pressroom-chromium-"));
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: exe.path,
    env: { ...process.env, ...exe.env },
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      "--no-first-run",
    ],
  });
}
