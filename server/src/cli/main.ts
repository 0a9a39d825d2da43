import { parseArgs } from "node:util";
import { loadConfig } from "../platform/config.js";
import { loadRemoteSettings } from "../platform/remote-settings.js";
import { jsonSafe, visible } from "../platform/terminal-text.js";
import { UsageError } from "./args.js";
import { failureOf } from "./failure.js";
import { createOutput } from "./output.js";

// Each command imports what it runs when it runs (`await import` below), not at the start of
// every command: the server's HTTP stack, sharp, the importers and the remote client took ~0.7 s
// of CPU to load, which `--help`, `key mint` or `workspace list` never use (README, "Operator
// CLI").

const USAGE = `Usage: pressroom <command> [options]

  start [--workers N|auto]                run the server (same as npm start); --workers: N
                                          server processes on one port (auto: one per core)
  db [--port N] [--data-dir DIR]          run the embedded database in the foreground
  db --build-only                         build the embedded database if needed, then exit
  db backup --out FILE [--force]          copy the embedded database, also while it runs
  db restore FILE                         replace it with a checked backup (server stopped)
  workspace create --name NAME            create a workspace
  workspace list
  blog create --workspace ID --title T [--slug S] [--body-file F] [--excerpt E]
              [--tags a,b] [--author NAME] [--cover-image-url URL] [--release]
              [--cover-image-alt TEXT] [--featured] [--meta-title T]
              [--meta-description D] [--canonical-url URL] [--social-image-url URL]
                                          the last six: the presentation and search fields
                                          (an empty TEXT or URL is none; default not featured)
  blog release|unrelease|remove --workspace ID BLOG_ID
  blog schedule --workspace ID BLOG_ID [--publish-at TIME|none] [--unrelease-at TIME|none]
                                          release (or publish pending changes) and unrelease
                                          at a time: ISO 8601 with its offset; none cancels
  blog list --workspace ID
  key mint --workspace ID --name NAME [--expires-in 30d | --expires-at ISO-DATE] [--preview]
                                          the only place a raw key is ever shown
  key roll --workspace ID KEY_ID [--grace 24h]
                                          a successor now; the old key expires after
                                          the grace period (1h to 30d; default 24h)
  key revoke --workspace ID KEY_ID
  key list --workspace ID [--status active|expired|revoked]
  key limit --workspace ID KEY_ID --rate REQUESTS/SECONDS|default
  workspace limit --workspace ID --rate REQUESTS/SECONDS|default
  user create --email E --name N          a dashboard user; the password is read from stdin
  user reset-password EMAIL               print a one-time link to choose a new password
                                          (30 minutes), for a server that sends no mail
  user turn-off-two-step EMAIL            turn off two-step sign-in (a lost app and recovery codes)
  demo                                    seed a workspace with example blogs
  export --workspace ID [--out FILE] [--media-dir DIR]
                                          the workspace as JSON (stdout by default); keys
                                          and webhook endpoints as metadata, no secrets; its
                                          images as files in DIR (default: FILE-media/ beside
                                          --out, e.g. ws.json → ws-media/)
  import --workspace ID [--from pressroom|ghost|markdown] [--dry-run] [--media-dir DIR] SOURCE
                                          idempotent: running it again changes nothing; images
                                          go to the library: a Markdown folder's relative ones,
                                          a Pressroom export's from its media folder, Ghost's
                                          from DIR (its content/images)

Options: --json (one JSON object on stdout), --help
The database is MONGODB_URI when set, else the embedded one in DATA_DIR (default ./data).

Remote mode: pressroom --server URL <command> (or PRESSROOM_SERVER=URL), with an access token
in PRESSROOM_TOKEN (Account → Access tokens), works through the server's admin API instead of
its database, from any machine (a CI job). Commands: workspace list, blog create, blog update,
blog release|unrelease|remove, blog list, import, export.
  blog update --workspace ID BLOG_ID [--title T] [--slug S] [--body-file F] [--excerpt E]
              [--tags a,b] [--author NAME] [--cover-image-url URL] [--cover-image-alt TEXT]
              [--featured|--no-featured] [--meta-title T] [--meta-description D]
              [--canonical-url URL] [--social-image-url URL] [--publish]
                                          a released blog's edit is pending until --publish;
                                          an empty TEXT or URL clears the field`;

const OPTIONS = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  name: { type: "string" },
  workspace: { type: "string" },
  title: { type: "string" },
  slug: { type: "string" },
  "body-file": { type: "string" },
  excerpt: { type: "string" },
  tags: { type: "string" },
  author: { type: "string" },
  "cover-image-url": { type: "string" },
  "cover-image-alt": { type: "string" },
  featured: { type: "boolean" },
  "no-featured": { type: "boolean" },
  "meta-title": { type: "string" },
  "meta-description": { type: "string" },
  "canonical-url": { type: "string" },
  "social-image-url": { type: "string" },
  "publish-at": { type: "string" },
  "unrelease-at": { type: "string" },
  release: { type: "boolean" },
  preview: { type: "boolean" },
  port: { type: "string" },
  "data-dir": { type: "string" },
  "build-only": { type: "boolean" },
  email: { type: "string" },
  "expires-in": { type: "string" },
  "expires-at": { type: "string" },
  grace: { type: "string" },
  status: { type: "string" },
  rate: { type: "string" },
  out: { type: "string" },
  force: { type: "boolean" },
  from: { type: "string" },
  "dry-run": { type: "boolean" },
  "media-dir": { type: "string" },
  workers: { type: "string" },
  server: { type: "string" },
  publish: { type: "boolean" },
} as const;

async function runDb(
  options: Record<string, string | boolean | undefined>,
  json: boolean,
): Promise<void> {
  const config = loadConfig();
  const port = Number(options.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError("--port must be 0-65535.");
  const dataDir = typeof options["data-dir"] === "string" ? options["data-dir"] : config.dataDir;
  const note = (line: string) => process.stderr.write(`${visible(line)}\n`);
  const { startRecordedEmbeddedDb } = await import("../platform/db/database.js");
  const { launcherEventLog } = await import("../platform/embedded-db/supervisor.js");
  // A launcher that dies is restarted (supervisor.ts); once that keeps failing, this exits 1.
  const db = await startRecordedEmbeddedDb(dataDir, port, note, (event) => {
    note(launcherEventLog(event).msg);
    if (event.kind === "died") for (const line of event.exit.stderr) note(`  ${line}`);
    if (event.kind === "gave-up") {
      note("`pressroom db` exits with code 1.");
      process.exit(1);
    }
  });
  createOutput(json).result(
    { uri: db.uri, dataDir },
    `Embedded database ready: ${db.uri}\nData: ${dataDir}\nPress Ctrl+C to stop.`,
  );
  // The embedded child does not hold the event loop open by itself; this process stays until a signal.
  const keepAlive = setInterval(() => {}, 1 << 30);
  const stop = () => {
    clearInterval(keepAlive);
    void db.stop().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

export async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<
    typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    process.stderr.write(`${visible((err as Error).message)}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const json = values.json === true;
  const out = createOutput(json);
  const [first, second, ...rest] = positionals;
  try {
    if (values.help === true || first === undefined || first === "help") {
      process.stdout.write(`${USAGE}\n`);
      return first === undefined && values.help !== true ? 2 : 0;
    }
    const remote = loadRemoteSettings(process.env, values.server);
    if (remote !== undefined) {
      const words = ["import", "export", "demo"].includes(first)
        ? first
        : `${first} ${second ?? ""}`.trim();
      const args = words.includes(" ") ? rest : second === undefined ? rest : [second, ...rest];
      const { runRemote } = await import("./remote-commands.js");
      await runRemote(
        remote,
        loadConfig(),
        words,
        { words: words.split(" "), args, options: values },
        out,
      );
      return 0;
    }
    if (values.publish === true)
      throw new UsageError("--publish is for blog update with --server.");
    if (first === "start") {
      const { runServer } = await import("../main.js");
      await runServer(loadConfig(process.env, process.cwd(), { workers: values.workers }));
      return -1; // keeps running until a signal
    }
    if (first === "db" && (second === "backup" || second === "restore")) {
      const { runBackupCommand } = await import("./backup-commands.js");
      await runBackupCommand(second, rest, values, out);
      return 0;
    }
    if (first === "db" && values["build-only"] === true) {
      const { ensureEmbeddedDbBinary } = await import("../platform/embedded-db/launcher.js");
      const bin = await ensureEmbeddedDbBinary((line) => out.note(line));
      out.result({ path: bin }, `Embedded database binary: ${bin}`);
      return 0;
    }
    if (first === "db") {
      await runDb(values, json);
      return -1;
    }
    if (first === "export" || first === "import") {
      const args = second === undefined ? rest : [second, ...rest];
      const { runTransfer } = await import("./transfer-commands.js");
      await runTransfer(loadConfig(), first, { words: [first], args, options: values }, out);
      return 0;
    }
    const { COMMANDS } = await import("./commands.js");
    const twoWords = `${first} ${second ?? ""}`;
    const [words, args] =
      COMMANDS[twoWords] !== undefined
        ? [twoWords, rest]
        : [first, second === undefined ? rest : [second, ...rest]];
    const command = COMMANDS[words];
    if (command === undefined) throw new UsageError(`Unknown command: ${positionals.join(" ")}`);
    const config = loadConfig();
    const [{ MIGRATIONS }, { openDatabase }, { createStores }] = await Promise.all([
      import("../migrations.js"),
      import("../platform/db/database.js"),
      import("../stores.js"),
    ]);
    const database = await openDatabase(config, MIGRATIONS, {
      onProgress: (line) => out.note(line),
    });
    try {
      const stores = createStores(database.db, {
        consumerRateLimit: config.consumerRateLimit,
        blogRevisionsKept: config.blogRevisionsKept,
      });
      await command(stores, { words: words.split(" "), args, options: values }, out, {
        dashboardOrigin: config.publicOrigin ?? `http://localhost:${config.port}`,
      });
    } finally {
      await database.close();
    }
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${visible(err.message)}\n\n${USAGE}\n`);
      return 2;
    }
    const { message, exitCode } = failureOf(err);
    if (json) process.stdout.write(`${jsonSafe(JSON.stringify({ message }))}\n`);
    process.stderr.write(`${visible(message)}\n`);
    return exitCode;
  }
}
