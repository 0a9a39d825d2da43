import { readFile } from "node:fs/promises";
import type { BlogStatus, WorkspaceDoc } from "../platform/db/collections.js";
import { notFound } from "../platform/domain-error.js";
import type { Stores } from "../stores.js";
import { resetLinkOf } from "../users/password-reset.js";
import { normalEmail } from "../users/users-store.js";
import {
  type CommandInput,
  optional,
  positional,
  presentationOptions,
  required,
  UsageError,
} from "./args.js";
import { seedDemo } from "./demo.js";
import { KEY_COMMANDS } from "./key-commands.js";
import { type Output, printBlogs, table } from "./output.js";

const iso = (at: Date | null | undefined): string | null => at?.toISOString() ?? null;

/** What the CLI prints of a workspace. */
const workspaceOut = (w: WorkspaceDoc) => ({
  id: w._id,
  name: w.name,
  createdAt: w.createdAt.toISOString(),
});

/** What a command knows of the server it works for, beside its database. */
export interface CommandContext {
  /** Where the dashboard is: PUBLIC_URL, else http://localhost:PORT. */
  readonly dashboardOrigin: string;
}

/** A command, given the stores of the database (stores.ts) it runs on. */
type Command = (
  stores: Stores,
  input: CommandInput,
  out: Output,
  context: CommandContext,
) => Promise<void>;

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

/** An ISO 8601 date and time with its offset: the CLI never guesses a time zone. */
const ZONED_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** `--publish-at` / `--unrelease-at`: a time, `none` (cancel), or absent (keep). */
function scheduledTime(input: CommandInput, name: string): Date | null | undefined {
  const raw = optional(input, name);
  if (raw === undefined) return undefined;
  if (raw === "none") return null;
  const at = new Date(raw);
  if (!ZONED_TIME.test(raw) || Number.isNaN(at.getTime())) {
    throw new UsageError(
      `--${name} takes a date and time with its offset (2026-12-01T09:00:00+01:00 or …Z), or none to cancel.`,
    );
  }
  return at;
}

/** `blog schedule --workspace ID BLOG_ID [--publish-at TIME|none] [--unrelease-at TIME|none]` */
const scheduleBlog: Command = async (stores, input, out) => {
  const publishAt = scheduledTime(input, "publish-at");
  const unreleaseAt = scheduledTime(input, "unrelease-at");
  if (publishAt === undefined && unreleaseAt === undefined) {
    throw new UsageError("Give --publish-at or --unrelease-at (a time, or none to cancel).");
  }
  const blog = await stores.blogs.schedule(
    required(input, "workspace"),
    positional(input, "BLOG_ID"),
    {
      ...(publishAt === undefined ? {} : { publishAt }),
      ...(unreleaseAt === undefined ? {} : { unreleaseAt }),
    },
    "any",
    null,
  );
  const times = {
    publishAt: blog.schedule?.publishAt?.toISOString() ?? null,
    unreleaseAt: blog.schedule?.unreleaseAt?.toISOString() ?? null,
  };
  const said = [
    times.publishAt === null
      ? null
      : `${blog.status === "draft" ? "released" : "its pending changes published"} at ${times.publishAt}`,
    times.unreleaseAt === null ? null : `back to draft at ${times.unreleaseAt}`,
  ].filter((x) => x !== null);
  out.result(
    { id: blog._id, status: blog.status, schedule: times },
    said.length === 0
      ? `Blog ${blog._id}: nothing scheduled.`
      : `Blog ${blog._id} will be ${said.join(", then ")} (a running server does it within 5 s of each).`,
  );
};

/** Every data command of the CLI, by its words. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  ...KEY_COMMANDS,
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
      ...presentationOptions(input),
      release: input.options.release === true,
    });
    out.result({ id: blog._id }, `Created ${blog.status} blog ${blog._id} (/${blog.slug}).`);
  },
  "blog list": async (stores, input, out) => {
    const list = await stores.blogs.listAll(required(input, "workspace"));
    printBlogs(
      out,
      list.map((b) => ({
        id: b._id,
        slug: b.slug,
        title: b.title,
        status: b.status,
        releasedAt: iso(b.releasedAt),
        updatedAt: b.updatedAt.toISOString(),
      })),
    );
  },
  "blog release": setBlogStatus("released", "is released"),
  "blog unrelease": setBlogStatus("draft", "is a draft again"),
  "blog remove": setBlogStatus("removed", "is removed"),
  "blog schedule": scheduleBlog,
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
  // For an operator whose server sends no mail: the link the mail would hold (admin.yaml,
  // completePasswordReset), printed once; only its hash is stored.
  "user reset-password": async (stores, input, out, context) => {
    const email = positional(input, "EMAIL");
    const user = await stores.users.findByEmail(email);
    if (user === null) throw notFound(`No account has the email ${normalEmail(email)}.`);
    const { token, expiresAt } = await stores.passwordResetLinks.issue(user);
    const link = resetLinkOf(context.dashboardOrigin, token);
    out.result(
      { email: user.email, link, expiresAt: expiresAt.toISOString() },
      [
        `A link to choose a new password for ${user.email}:`,
        link,
        `It works once, until ${expiresAt.toISOString()} (30 minutes). Using it signs the account out everywhere.`,
      ].join("\n"),
    );
  },
  // For an account that lost its authenticator app and its recovery codes: the operator's word
  // replaces both. Its password still signs it in.
  "user turn-off-two-step": async (stores, input, out) => {
    const email = positional(input, "EMAIL");
    const user = await stores.users.findByEmail(email);
    if (user === null) throw notFound(`No account has the email ${normalEmail(email)}.`);
    const wasOn = await stores.twoStep.forceOff(user._id);
    out.result(
      { email: user.email, turnedOff: wasOn },
      wasOn
        ? `Two-step sign-in is off for ${user.email}: it signs in with its password alone. Workspaces that require two-step sign-in of their owners refuse it as an owner until it turns it on again.`
        : `Two-step sign-in was not on for ${user.email}; nothing changed.`,
    );
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

export { UsageError };
