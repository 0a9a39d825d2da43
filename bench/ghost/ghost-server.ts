/**
 * One Ghost site for bench/ghost.ts: Ghost as Ghost-CLI lays it out (an instance directory whose
 * `current` links to the package, `config.production.json` beside it), `NODE_ENV=production`
 * on SQLite (`better-sqlite3`, the database Ghost supports for one machine) in a throwaway
 * content directory, its log lines (one per request at `info`, like Pressroom's access log)
 * read and dropped. No update check, gravatar or other outside calls (`privacy.useTinfoil`), and
 * a stub mail transport: this machine reaches none of them; no emailed code at the owner's
 * sign-in (`security.staffDeviceVerification`). Of what the measured requests meet, one setting
 * differs from Ghost's defaults: the limit of unknown Content API keys per address (below).
 *
 * `setUp` does what a new owner does in Ghost Admin: the first-run setup, a session, and a
 * custom integration whose Content API key the consumer requests carry. `addPosts` publishes
 * posts through the Admin API (`?source=html`: Ghost turns the HTML into its Lexical document
 * and renders it again, as an import does), two at a time.
 */
import { spawn } from "node:child_process";
import { cp, mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Children, keepTail, type Proc } from "../db-scaling/processes.js";
import { freePort } from "../http-server-child.js";
import type { GhostInstall } from "./install.js";

export interface GhostSite extends Proc {
  readonly url: string;
}

/** A post as bench/ghost.ts takes it from Pressroom's seed. */
export interface GhostPost {
  title: string;
  slug: string;
  html: string;
  tags: string[];
  publishedAt: Date;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts Ghost in `dir` (made here); resolves once its Content API answers. */
export async function startGhost(
  group: Children,
  install: GhostInstall,
  dir: string,
): Promise<GhostSite> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const content = path.join(dir, "content");
  await mkdir(path.join(content, "data"), { recursive: true });
  await cp(path.join(install.ghostDir, "content", "themes"), path.join(content, "themes"), {
    recursive: true,
  });
  await symlink(install.ghostDir, path.join(dir, "current"));
  const config = {
    url,
    server: { host: "127.0.0.1", port },
    database: {
      client: "sqlite3",
      connection: { filename: path.join(content, "data", "ghost.db") },
      useNullAsDefault: true,
    },
    paths: { contentPath: content },
    mail: { transport: "stub" },
    logging: { level: "info", transports: ["stdout"] },
    privacy: { useTinfoil: true },
    security: { staffDeviceVerification: false },
    // Ghost blocks an address for an hour (429) after 99 unknown Content API keys within one;
    // the 401 question measures what answering a bad key costs, as Pressroom's does.
    spam: { content_api_key: { freeRetries: 1_000_000_000 } },
  };
  await writeFile(path.join(dir, "config.production.json"), JSON.stringify(config, null, 2));
  const child = spawn(install.node, [path.join(dir, "current", "index.js")], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const proc = group.track(child, "ghost");
  const tail: string[] = [];
  keepTail(child, tail);
  child.stdout?.resume();
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  for (let i = 0; ; i++) {
    const reply = await fetch(`${url}/ghost/api/admin/site/`).catch(() => null);
    if (reply?.ok) break;
    if (exited || i > 1200) {
      await proc.stop();
      throw new Error(`Ghost did not start. Last lines:\n${tail.join("\n")}`);
    }
    await sleep(100);
  }
  return { ...proc, url };
}

interface Admin {
  call(method: string, p: string, body?: unknown): Promise<unknown>;
}

function adminOf(site: GhostSite): Admin {
  let cookie = "";
  return {
    async call(method, p, body) {
      const reply = await fetch(`${site.url}/ghost/api/admin${p}`, {
        method,
        headers: { "content-type": "application/json", origin: site.url, cookie },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const set = reply.headers.get("set-cookie");
      if (set !== null) cookie = set.split(";")[0] ?? cookie;
      const text = await reply.text();
      if (!reply.ok) throw new Error(`Ghost ${method} ${p}: ${reply.status} ${text.slice(0, 300)}`);
      // A new session answers 201 with the word "Created", not JSON.
      return reply.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text;
    },
  };
}

/** First-run setup, a session and a custom integration; the admin client and the Content API key. */
export async function setUp(site: GhostSite): Promise<{ admin: Admin; contentKey: string }> {
  const admin = adminOf(site);
  // Ghost refuses a password holding the site's title or a common one.
  const password = "Zq7Kx93Lm2Wp58Rt";
  const email = "owner@example.com";
  await admin.call("POST", "/authentication/setup/", {
    setup: [{ name: "Bench Owner", email, password, blogTitle: "Side by side" }],
  });
  await admin.call("POST", "/session/", { username: email, password });
  const made = (await admin.call("POST", "/integrations/?include=api_keys", {
    integrations: [{ name: "Bench" }],
  })) as { integrations: { api_keys: { type: string; secret: string }[] }[] };
  const contentKey = made.integrations[0]?.api_keys.find((k) => k.type === "content")?.secret;
  if (contentKey === undefined) throw new Error("Ghost made no Content API key");
  // The sample post a new site starts with, so that both sides hold the same posts.
  const { posts } = (await admin.call(
    "GET",
    "/posts/?limit=all&fields=id&filter=status:[published,draft,scheduled]",
  )) as {
    posts: { id: string }[];
  };
  for (const { id } of posts) await admin.call("DELETE", `/posts/${id}/`);
  return { admin, contentKey };
}

/** Publishes `posts` (two requests at a time); `log` gets a line every 1,000. */
export async function addPosts(
  admin: Admin,
  posts: readonly GhostPost[],
  log: (line: string) => void,
): Promise<void> {
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    for (let i = next++; i < posts.length; i = next++) {
      const p = posts[i] as GhostPost;
      await admin.call("POST", "/posts/?source=html", {
        posts: [
          {
            title: p.title,
            slug: p.slug,
            html: p.html,
            status: "published",
            published_at: p.publishedAt.toISOString(),
            tags: p.tags.map((name) => ({ name })),
          },
        ],
      });
      if ((i + 1) % 1000 === 0) {
        log(`  Ghost: ${i + 1} posts published (${Math.round((Date.now() - started) / 1000)} s)`);
      }
    }
  };
  await Promise.all([worker(), worker()]);
}
