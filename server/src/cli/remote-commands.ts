/**
 * `pressroom --server URL …`: the commands a script or CI job runs against a server it cannot
 * reach the database of, through the admin API with an access token (README, "Operator CLI").
 * Each does what the same command does on the server's machine, and prints the same.
 */
import { readFile } from "node:fs/promises";
import type { Config } from "../platform/config.js";
import type { RemoteSettings } from "../platform/remote-settings.js";
import { attachImages } from "../transfer/attach-images.js";
import { writeMediaFiles } from "../transfer/export-media.js";
import type { WorkspaceExport } from "../transfer/export-workspace.js";
import type { ImportAuthor, ImportBlog, ImportSet } from "../transfer/import-set.js";
import { mediaFolderOf } from "../transfer/pressroom-media.js";
import {
  type CommandInput,
  optional,
  positional,
  presentationOptions,
  required,
  UsageError,
} from "./args.js";
import { printImport } from "./import-output.js";
import { type ListedBlog, type Output, printBlogs, table } from "./output.js";
import { type AdminClient, adminClient, answerOf, doneOf } from "./remote-client.js";
import { publicImageOf, remoteImageLibrary } from "./remote-media.js";
import { exportToFile, readSource } from "./transfer-commands.js";
import { imagesLine, mediaFilesLine } from "./transfer-media.js";

interface Remote {
  readonly api: AdminClient;
  readonly server: URL;
  readonly config: Pick<Config, "importMaxBytes">;
}

type RemoteCommand = (remote: Remote, input: CommandInput, out: Output) => Promise<void>;

/** Any version: a command edits what the blog is when the server gets it (admin.yaml, IfMatch). */
const ANY_VERSION = { "If-Match": "*" } as const;

const blogPath = (input: CommandInput) => ({
  workspaceId: required(input, "workspace"),
  blogId: positional(input, "BLOG_ID"),
});

/** `--tags a,b` as a list; absent stays absent (an update keeps the tags). */
const tagsOf = (input: CommandInput): string[] | undefined => optional(input, "tags")?.split(",");

/** The fields a create or an update sets, from the flags given (absent: not sent). */
async function blogFields(input: CommandInput) {
  const bodyFile = optional(input, "body-file");
  const tags = tagsOf(input);
  const fields = {
    title: optional(input, "title"),
    slug: optional(input, "slug"),
    bodyMarkdown: bodyFile === undefined ? undefined : await readFile(bodyFile, "utf8"),
    excerpt: optional(input, "excerpt"),
    tags,
    authorName: optional(input, "author"),
    coverImageUrl: optional(input, "cover-image-url"),
    ...presentationOptions(input),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/** `blog release|unrelease|remove`: one state change, of whichever version is current. */
const stateChange =
  (action: "release" | "unrelease" | "remove", says: string): RemoteCommand =>
  async ({ api, server }, input, out) => {
    const path = blogPath(input);
    const params = { path, header: ANY_VERSION };
    if (action === "remove") {
      await doneOf(api.DELETE("/workspaces/{workspaceId}/blogs/{blogId}", { params }), server);
      out.result({ id: path.blogId, status: "removed" }, `Blog ${path.blogId} ${says}.`);
      return;
    }
    const blog = await answerOf(
      api.POST(`/workspaces/{workspaceId}/blogs/{blogId}/${action}`, { params }),
      server,
    );
    out.result({ id: blog.id, status: blog.status }, `Blog ${blog.id} ${says}.`);
  };

/** An entry as importBlogs takes it (admin.yaml `ImportEntry`): dates as ISO 8601 text. */
const entryOf = (b: ImportBlog) => ({
  sourceKey: b.sourceKey,
  origin: b.origin,
  title: b.title,
  slug: b.slug,
  status: b.status,
  bodyMarkdown: b.bodyMarkdown,
  ...(b.excerpt === undefined ? {} : { excerpt: b.excerpt }),
  tags: [...b.tags],
  authorName: b.authorName,
  ...(b.authors === undefined
    ? {}
    : { authors: b.authors.map(({ name, slug }) => ({ name, slug })) }),
  coverImageUrl: b.coverImageUrl,
  coverImageAlt: b.coverImageAlt,
  featured: b.featured,
  metaTitle: b.metaTitle,
  metaDescription: b.metaDescription,
  canonicalUrl: b.canonicalUrl,
  socialImageUrl: b.socialImageUrl,
  createdAt: b.createdAt.toISOString(),
  updatedAt: b.updatedAt.toISOString(),
  releasedAt: b.releasedAt?.toISOString() ?? null,
  removedAt: b.removedAt?.toISOString() ?? null,
  ...(b.publishAt == null ? {} : { publishAt: b.publishAt.toISOString() }),
});

/** A source's author as importBlogs takes it (admin.yaml `ImportAuthor`): public fields only. */
const authorOf = (a: ImportAuthor) => ({
  slug: a.slug,
  name: a.name,
  ...(a.bio == null ? {} : { bio: a.bio }),
  ...(a.avatarUrl == null ? {} : { avatarUrl: a.avatarUrl }),
  ...(a.websiteUrl == null ? {} : { websiteUrl: a.websiteUrl }),
});

export const REMOTE_COMMANDS: Readonly<Record<string, RemoteCommand>> = {
  "workspace list": async ({ api, server }, _input, out) => {
    const { data } = await answerOf(api.GET("/workspaces"), server);
    const list = data.map((w) => ({ id: w.id, name: w.name, role: w.role }));
    out.result(
      { workspaces: list },
      table(
        ["ID", "NAME", "ROLE"],
        list.map((w) => [w.id, w.name, w.role]),
      ),
    );
  },

  "blog create": async ({ api, server }, input, out) => {
    const workspaceId = required(input, "workspace");
    const fields = await blogFields(input);
    const created = await answerOf(
      api.POST("/workspaces/{workspaceId}/blogs", {
        params: { path: { workspaceId } },
        body: { ...fields, title: required(input, "title") },
      }),
      server,
    );
    const blog =
      input.options.release === true
        ? await answerOf(
            api.POST("/workspaces/{workspaceId}/blogs/{blogId}/release", {
              params: { path: { workspaceId, blogId: created.id }, header: ANY_VERSION },
            }),
            server,
          )
        : created;
    out.result({ id: blog.id }, `Created ${blog.status} blog ${blog.id} (/${blog.slug}).`);
  },

  "blog update": async ({ api, server }, input, out) => {
    const path = blogPath(input);
    const fields = await blogFields(input);
    if (Object.keys(fields).length === 0) {
      throw new UsageError(
        "Give at least one of --title, --slug, --body-file, --excerpt, --tags, --author, --cover-image-url, --cover-image-alt, --featured, --no-featured, --meta-title, --meta-description, --canonical-url, --social-image-url.",
      );
    }
    let blog = await answerOf(
      api.PATCH("/workspaces/{workspaceId}/blogs/{blogId}", {
        params: { path, header: ANY_VERSION },
        body: fields,
      }),
      server,
    );
    // A released blog's edit is staged until published (admin.yaml, "Staged changes").
    if (input.options.publish === true && blog.pendingChanges) {
      blog = await answerOf(
        api.POST("/workspaces/{workspaceId}/blogs/{blogId}/publish", {
          params: { path, header: ANY_VERSION },
        }),
        server,
      );
    }
    const staged = blog.pendingChanges
      ? " Its changes are pending: consumers see them after `--publish` (or Publish in the dashboard)."
      : "";
    out.result(
      { id: blog.id, status: blog.status, pendingChanges: blog.pendingChanges },
      `Updated ${blog.status} blog ${blog.id} (/${blog.slug}).${staged}`,
    );
  },

  "blog list": async ({ api, server }, input, out) => {
    const workspaceId = required(input, "workspace");
    const blogs: ListedBlog[] = [];
    let cursor: string | undefined;
    do {
      const page = await answerOf(
        api.GET("/workspaces/{workspaceId}/blogs", {
          params: { path: { workspaceId }, query: { limit: 100, ...(cursor ? { cursor } : {}) } },
        }),
        server,
      );
      for (const { id, slug, title, status, releasedAt, updatedAt } of page.data) {
        blogs.push({ id, slug, title, status, releasedAt, updatedAt });
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    printBlogs(out, blogs);
  },

  "blog release": stateChange("release", "is released"),
  "blog unrelease": stateChange("unrelease", "is a draft again"),
  "blog remove": stateChange("remove", "is removed"),

  import: async ({ api, server, config }, input, out) => {
    const workspaceId = required(input, "workspace");
    const { format, source, set, dryRun } = await readSource(config, input, out);
    const send = (entries: ImportSet, planOnly: boolean) =>
      answerOf(
        api.POST("/workspaces/{workspaceId}/imports", {
          params: { path: { workspaceId } },
          body: {
            source: `${format} ${source}`,
            dryRun: planOnly,
            blogs: entries.blogs.map(entryOf),
            ...(entries.authors === undefined ? {} : { authors: entries.authors.map(authorOf) }),
          },
        }),
        server,
      );
    // The images first, through uploadMedia, once a dry run of the blogs passed (attach-images.ts).
    const attached = await attachImages(set, remoteImageLibrary(api, server, workspaceId), {
      dryRun,
      origin: server.origin,
      checkFirst: (entries) => send(entries, true),
    });
    out.note(`Sending ${set.blogs.length.toLocaleString("en")} blogs to ${server.origin}…`);
    const report = await send(attached.set, dryRun);
    printImport(report, set, out);
    if (set.images !== undefined && set.images.length > 0) out.note(imagesLine(attached, dryRun));
  },

  export: async ({ api, server }, input, out) => {
    const workspaceId = required(input, "workspace");
    if (input.args.length > 0) throw new UsageError("export takes no positional arguments.");
    const file = optional(input, "out");
    const mediaDir =
      optional(input, "media-dir") ?? (file === undefined ? undefined : mediaFolderOf(file));
    const call = api.GET("/workspaces/{workspaceId}/export", {
      params: { path: { workspaceId } },
      parseAs: "stream",
    });
    const body = await answerOf(call, server);
    const chunks = body as unknown as AsyncIterable<Uint8Array>;
    let whole: Buffer | undefined;
    if (mediaDir !== undefined) {
      // Its images first, from the records it holds: an export whose images failed leaves no
      // JSON naming them, as on the server's machine.
      const kept: Buffer[] = [];
      for await (const chunk of chunks) kept.push(Buffer.from(chunk));
      whole = Buffer.concat(kept);
      const { media = [] } = JSON.parse(whole.toString("utf8")) as Partial<
        Pick<WorkspaceExport, "media">
      >;
      if (media.length > 0) {
        const files = await writeMediaFiles(media, mediaDir, publicImageOf(server));
        out.note(mediaFilesLine(media.length, files, mediaDir));
      }
    }
    const copy = async (to: NodeJS.WritableStream) => {
      for await (const chunk of whole === undefined ? chunks : [whole]) {
        if (!to.write(chunk)) await new Promise((r) => to.once("drain", r));
      }
    };
    if (file === undefined) await copy(process.stdout);
    else await exportToFile(file, copy);
    const said = `Exported workspace ${workspaceId} from ${server.origin}${file === undefined ? "" : ` to ${file}`}.`;
    if (file !== undefined && out.json) out.result({ file }, said);
    else out.note(said);
  },
};

/** Runs `words` remotely, or says it works only where the database is. */
export async function runRemote(
  settings: RemoteSettings,
  config: Pick<Config, "importMaxBytes">,
  words: string,
  input: CommandInput,
  out: Output,
): Promise<void> {
  const command = REMOTE_COMMANDS[words];
  if (command === undefined) {
    throw new UsageError(
      `"${words}" works on the server's machine only (it needs the database). With --server: ${Object.keys(REMOTE_COMMANDS).join(", ")}.`,
    );
  }
  const api = adminClient(settings, { onRetry: (line) => out.note(line) });
  await command({ api, server: settings.server, config }, input, out);
}
