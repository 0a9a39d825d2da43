// Which Chromium the browser suites use: launches it the way they do (test/support/chromium.ts)
// and prints the version it reports and its executable. Without PRESSROOM_CHROMIUM it fails
// unless that is the Chromium npm installed, and it fails if the launcher's source names any
// system location or PATH lookup it could fall back to. .ci/run runs it before npm test.
import { readFileSync } from "node:fs";
import path from "node:path";
import { chromiumExecutable, launchChromium } from "../support/chromium.js";

const problems: string[] = [];

const launcher = "test/support/chromium.ts";
const systemLookup =
  /\/(usr|opt|snap|Applications)\/|google-chrome|chromium-browser|\bwhich\b|command -v|env\.PATH\b|CHROMIUM_PATH/;
readFileSync(launcher, "utf8")
  .split("\n")
  .forEach((line, i) => {
    if (systemLookup.test(line)) {
      problems.push(`${launcher}:${i + 1} looks for a system Chromium: ${line.trim()}`);
    }
  });

const exe = await chromiumExecutable();
const browser = await launchChromium();
const version = browser.browser()?.version() ?? "unknown";
await browser.close();
console.log(`Chromium ${version} from ${exe.path} (${exe.source})`);

if (!process.env.PRESSROOM_CHROMIUM) {
  const nodeModules = `${path.resolve("node_modules")}${path.sep}`;
  if (!exe.path.startsWith(nodeModules)) {
    problems.push(`${exe.path} is not the Chromium npm installed (under ${nodeModules})`);
  }
  const packageMajor = exe.source.split("@").pop()?.split(".")[0];
  if (version.split(".")[0] !== packageMajor) {
    problems.push(`the browser reports ${version}, not the ${exe.source} it was unpacked from`);
  }
}

if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
