import { execFile } from "node:child_process";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../server/src/platform/config.js";
import { createLogger, logFormatFor } from "../../server/src/platform/logger.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const RAW_KEY = `cp_live_${"Q".repeat(40)}`;
const ESC = "\u001b[";

function capture() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString("utf8"));
      done();
    },
  });
  return { stream, text: () => chunks.join("") };
}

const DEMO = "test/support/log-demo.ts";

async function runLogging(env: Record<string, string>, terminal: boolean): Promise<string> {
  // `script` gives the program a pseudo-terminal for stdout, as a person's shell would.
  const [file, args] = terminal
    ? ["script", ["-qec", `node --import tsx ${DEMO}`, "/dev/null"]]
    : ["node", ["--import", "tsx", DEMO]];
  const { stdout } = await promisify(execFile)(file, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, LOG_FORMAT: env.LOG_FORMAT ?? "" },
  });
  return stdout;
}

describe("log format: happy", () => {
  it("a terminal gets readable coloured lines; a pipe or file gets JSON lines", async () => {
    const tty = await runLogging({}, true);
    expect(tty).toMatch(/INFO.*Pressroom listening/);
    expect(tty).toContain(ESC);
    expect(tty).not.toMatch(/^\{/m);
    const piped = await runLogging({}, false);
    const lines = piped.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ level: 30, msg: "Pressroom listening" });
    expect(piped).not.toContain(ESC);
  }, 60_000);

  it("LOG_FORMAT forces either, whatever stdout is", async () => {
    const forcedJson = await runLogging({ LOG_FORMAT: "json" }, true);
    expect(JSON.parse(forcedJson.trim().split("\n")[0]?.trim() ?? "")).toMatchObject({
      msg: "Pressroom listening",
    });
    const forcedPretty = await runLogging({ LOG_FORMAT: "pretty" }, false);
    expect(forcedPretty).toMatch(/INFO.*Pressroom listening.*url/);
    expect(forcedPretty).toMatch(/WARN.*careful/);
    expect(forcedPretty).not.toContain(ESC);
  }, 60_000);

  it("the rule: LOG_FORMAT when set, else pretty only for a terminal", () => {
    expect(logFormatFor(undefined, true)).toBe("pretty");
    expect(logFormatFor(undefined, false)).toBe("json");
    expect(logFormatFor("json", true)).toBe("json");
    expect(logFormatFor("pretty", false)).toBe("pretty");
  });
});

describe("log format: error", () => {
  it("an unknown LOG_FORMAT fails at boot with a clear message", () => {
    expect(() => loadConfig({ LOG_FORMAT: "xml" })).toThrow(
      /LOG_FORMAT must be "json" or "pretty" \(got "xml"\)/,
    );
  });
});

describe("log format: security", () => {
  it("pretty lines keep the logger's redaction of key and header fields", () => {
    const out = capture();
    const logger = createLogger("info", out.stream, "pretty");
    logger.info({ apiKey: RAW_KEY, headers: { "x-api-key": RAW_KEY } }, "request");
    logger.flush();
    expect(out.text()).toMatch(/INFO/);
    expect(out.text()).not.toContain(RAW_KEY);
    expect(out.text()).toContain('"apiKey":"[REDACTED]"');
  });
});
