import { readFile } from "node:fs/promises";
import type { ApiKeyDoc, BlogStatus, WorkspaceDoc } from "../db/collections.js";
import type { Stores } from "../stores.js";
import { seedDemo } from "./demo.js";
import { type Output, table } from "./output.js";

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export interface CommandInput {
  /** e.g. ["key", "mint"] */
  readonly words: readonly string[];
  /** Positional arguments after the command words. */
  readonly args: readonly string[];
  readonly options: Readonly<Record<string, string | boolean | undefined>>;
}

const required = (input: CommandInput, name: string): string => {
  const value = input.options[name];
  if (typeof value !== "string" || value.trim() === "")
    throw new UsageError(`--${name} is required.`);
  return value;
};
const optional = (input: CommandInput, name: string): string | undefined => {
  const value = input.options[name];
  return typeof value === "string" ? value : undefined;
};
const positional = (input: CommandInput, what: string): string => {
  const [value, ...rest] = input.args;
  if (value === undefined || rest.length > 0) throw new UsageError(`Expected exactly one ${what}.`);
  return value;
};
const iso = (at: Date | null | undefined): string | null => at?.toISOString() ?? null;

/** What the CLI prints of a workspace and of a key (never the key's hash). */
const workspaceOut = (w: WorkspaceDoc) => ({
  id: w._id,
  name: w.name,
  createdAt: w.createdAt.toISOString(),
});
const keyOut = (k: ApiKeyDoc) => ({
  id: k.keyId,
  name: k.name,
  prefix: k.prefix,
  status: k.status,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: iso(k.lastUsedAt),
});

/** A command, given the stores of the database (stores.ts) it runs on. */
type Command = (stores: Stores, input: CommandInput, out: Output) => Promise<void>;

/** A password comes on stdin, never on the command line (where ps and shell history see it). */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError("Pipe the password on stdin.");
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

/** `blog release|unrelease|remove --workspace ID BLOG_ID` */
const setBlogStatus =
  (status: BlogStatus, says: string): Command =>
  async (stores, input, out) => {
    const blog = await stores.blogs.setStatus(
      required(input, "workspace"),
      positional(input, "BLOG_ID"),
      status,
    );
    out.result({ id: blog._id, status: blog.status }, `Blog ${blog._id} ${says}.`);
  };

/** Every data command of the CLI, by its words. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  "workspace create": async (stores, input, out) => {
    const ws = await stores.workspaces.create(required(input, "name"));
    out.result({ id: ws._id }, `Created workspace ${ws._id} (${ws.name}).`);
  },
  "workspace list": async (stores, _input, out) => {
    const list = (await stores.workspaces.list()).map(workspaceOut);
    out.result(
      { workspaces: list },
      table(
        ["ID", "NAME", "CREATED"],
        list.map((w) => [w.id, w.name, w.createdAt]),
      ),
    );
  },
  "blog create": async (stores, input, out) => {
    const bodyFile = optional(input, "body-file");
    const blog = await stores.blogs.create(required(input, "workspace"), {
      title: required(input, "title"),
      slug: optional(input, "slug"),
      bodyMarkdown: bodyFile === undefined ? "" : await readFile(bodyFile, "utf8"),
      excerpt: optional(input, "excerpt"),
      tags: optional(input, "tags")?.split(","),
      authorName: optional(input, "author"),
      coverImageUrl: optional(input, "cover-image-url"),
      release: input.options.release === true,
    });
    out.result({ id: blog._id }, `Created ${blog.status} blog ${blog._id} (/${blog.slug}).`);
  },
  "blog list": async (stores, input, out) => {
    const list = await stores.blogs.listAll(required(input, "workspace"));
    const blogs = list.map((b) => ({
      id: b._id,
      slug: b.slug,
      title: b.title,
      status: b.status,
      releasedAt: iso(b.releasedAt),
      updatedAt: b.updatedAt.toISOString(),
    }));
    out.result(
      { blogs },
      table(
        ["ID", "STATUS", "SLUG", "TITLE"],
        blogs.map((b) => [b.id, b.status, b.slug, b.title]),
      ),
    );
  },
  "blog release": setBlogStatus("released", "is released"),
  "blog unrelease": setBlogStatus("draft", "is a draft again"),
  "blog remove": setBlogStatus("removed", "is removed"),
  "key mint": async (stores, input, out) => {
    const { id, key, doc } = await stores.keys.mint(
      required(input, "workspace"),
      required(input, "name"),
    );
    out.result(
      { id, key, prefix: doc.prefix },
      `Minted key ${id} (${doc.prefix}…).\n\n  ${key}\n\nThis is the only time the key is shown: store it now. It cannot be recovered.`,
    );
  },
  "key revoke": async (stores, input, out) => {
    const key = await stores.keys.revoke(required(input, "workspace"), positional(input, "KEY_ID"));
    out.result(
      { id: key.keyId, status: key.status, revokedAt: iso(key.revokedAt) },
      `Revoked key ${key.keyId} (${key.prefix}…). It stops working now.`,
    );
  },
  "key list": async (stores, input, out) => {
    const keys = (await stores.keys.list(required(input, "workspace"))).map(keyOut);
    out.result(
      { keys },
      table(
        ["ID", "NAME", "PREFIX", "STATUS", "CREATED", "LAST USED"],
        keys.map((k) => [
          k.id,
          k.name,
          `${k.prefix}…`,
          k.status,
          k.createdAt,
          k.lastUsedAt ?? "never",
        ]),
      ),
    );
  },
  "user create": async (stores, input, out) => {
    const password = (await readStdin()).replace(/\r?\n$/, "");
    if (password.length < 10)
      throw new UsageError("Pipe a password of at least 10 characters on stdin.");
    const user = await stores.users.create({
      email: required(input, "email"),
      name: required(input, "name"),
      password,
    });
    out.result({ id: user._id, email: user.email }, `Created user ${user._id} (${user.email}).`);
  },
  demo: async (stores, _input, out) => {
    const seeded = await seedDemo(stores);
    out.result(
      seeded,
      [
        `Seeded workspace ${seeded.workspaceId} with ${seeded.released.length} released, ${seeded.drafts.length} draft and ${seeded.removed.length} removed blogs.`,
        `Mint a key:  npx pressroom key mint --workspace ${seeded.workspaceId} --name "My website"`,
      ].join("\n"),
    );
  },
};
