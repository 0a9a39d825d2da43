import { readFile } from "node:fs/promises";
import type { Db } from "mongodb";
import { blogsStore } from "../blogs/blogs-store.js";
import { inlineRenderer } from "../blogs/render-pool.js";
import { type BlogStatus, collections } from "../db/collections.js";
import { keysStore } from "../keys/keys-store.js";
import { usersStore } from "../users/users-store.js";
import { workspacesStore } from "../workspaces/workspaces-store.js";
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
const never = (iso: string | null): string => iso ?? "never";

type Command = (db: Db, input: CommandInput, out: Output) => Promise<void>;

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
  async (db, input, out) => {
    const blog = await blogsStore(collections(db), inlineRenderer).setStatus(
      required(input, "workspace"),
      positional(input, "BLOG_ID"),
      status,
    );
    out.result({ id: blog._id, status: blog.status }, `Blog ${blog._id} ${says}.`);
  };

/** Every data command of the CLI, by its words. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  "workspace create": async (db, input, out) => {
    const ws = await workspacesStore(collections(db)).create(required(input, "name"));
    out.result({ id: ws.id }, `Created workspace ${ws.id} (${ws.name}).`);
  },
  "workspace list": async (db, _input, out) => {
    const list = await workspacesStore(collections(db)).list();
    out.result(
      { workspaces: list },
      table(
        ["ID", "NAME", "CREATED"],
        list.map((w) => [w.id, w.name, w.createdAt]),
      ),
    );
  },
  "blog create": async (db, input, out) => {
    const bodyFile = optional(input, "body-file");
    const blog = await blogsStore(collections(db), inlineRenderer).create(
      required(input, "workspace"),
      {
        title: required(input, "title"),
        slug: optional(input, "slug"),
        bodyMarkdown: bodyFile === undefined ? "" : await readFile(bodyFile, "utf8"),
        excerpt: optional(input, "excerpt"),
        tags: optional(input, "tags")?.split(","),
        authorName: optional(input, "author"),
        coverImageUrl: optional(input, "cover-image-url"),
        release: input.options.release === true,
      },
    );
    out.result({ id: blog._id }, `Created ${blog.status} blog ${blog._id} (/${blog.slug}).`);
  },
  "blog list": async (db, input, out) => {
    const list = await blogsStore(collections(db), inlineRenderer).listAll(
      required(input, "workspace"),
    );
    const blogs = list.map((b) => ({
      id: b._id,
      slug: b.slug,
      title: b.title,
      status: b.status,
      releasedAt: b.releasedAt?.toISOString() ?? null,
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
  "key mint": async (db, input, out) => {
    const minted = await keysStore(collections(db)).mint(
      required(input, "workspace"),
      required(input, "name"),
    );
    const { id, key, prefix } = minted;
    out.result(
      { id, key, prefix },
      `Minted key ${minted.id} (${minted.prefix}…).\n\n  ${minted.key}\n\nThis is the only time the key is shown: store it now. It cannot be recovered.`,
    );
  },
  "key revoke": async (db, input, out) => {
    const key = await keysStore(collections(db)).revoke(
      required(input, "workspace"),
      positional(input, "KEY_ID"),
    );
    out.result(
      { id: key.id, status: key.status, revokedAt: key.revokedAt },
      `Revoked key ${key.id} (${key.prefix}…). It stops working now.`,
    );
  },
  "key list": async (db, input, out) => {
    const keys = await keysStore(collections(db)).list(required(input, "workspace"));
    out.result(
      {
        keys: keys.map(({ id, name, prefix, status, createdAt, lastUsedAt }) => ({
          id,
          name,
          prefix,
          status,
          createdAt,
          lastUsedAt,
        })),
      },
      table(
        ["ID", "NAME", "PREFIX", "STATUS", "CREATED", "LAST USED"],
        keys.map((k) => [k.id, k.name, `${k.prefix}…`, k.status, k.createdAt, never(k.lastUsedAt)]),
      ),
    );
  },
  "user create": async (db, input, out) => {
    const password = (await readStdin()).replace(/\r?\n$/, "");
    if (password.length < 10)
      throw new UsageError("Pipe a password of at least 10 characters on stdin.");
    const user = await usersStore(collections(db)).create({
      email: required(input, "email"),
      name: required(input, "name"),
      password,
    });
    out.result({ id: user._id, email: user.email }, `Created user ${user._id} (${user.email}).`);
  },
  demo: async (db, _input, out) => {
    const seeded = await seedDemo(db);
    out.result(
      seeded,
      [
        `Seeded workspace ${seeded.workspaceId} with ${seeded.released.length} released, ${seeded.drafts.length} draft and ${seeded.removed.length} removed blogs.`,
        `Mint a key:  npx pressroom key mint --workspace ${seeded.workspaceId} --name "My website"`,
      ].join("\n"),
    );
  },
};
