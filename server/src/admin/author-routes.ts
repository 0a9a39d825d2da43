import type { AuditLog } from "../audit/audit-log.js";
import type { AuthorsStore } from "../authors/authors-store.js";
import { toAdminAuthor as toAuthor } from "../blogs/blog-authors.js";
import type { AuditAction, AuthorDoc } from "../platform/db/collections.js";
import type { AdminHandler } from "../platform/http/admin-types.js";
import { signedInUser } from "./guards.js";

/**
 * A workspace's authors (admin.yaml, "Authors": `listAuthors`, `createAuthor`, `updateAuthor`,
 * `removeAuthor`); any member, by the router's guard. Each change is an audit entry naming the
 * author.
 */
export function authorHandlers(deps: { readonly authors: AuthorsStore; readonly audit: AuditLog }) {
  const record = (workspaceId: string, actor: string, action: AuditAction, author: AuthorDoc) =>
    deps.audit.record({
      workspaceId,
      actor,
      action,
      details: { authorId: author._id, authorName: author.name },
    });

  const listAuthors: AdminHandler<"listAuthors"> = async (req, res) => {
    const authors = await deps.authors.list(req.params.workspaceId);
    res.json({ data: authors.map(toAuthor) });
  };

  const createAuthor: AdminHandler<"createAuthor"> = async (req, res) => {
    const { workspaceId } = req.params;
    const author = await deps.authors.create(workspaceId, req.body);
    await record(workspaceId, signedInUser(res), "author.created", author);
    res.status(201).json(toAuthor(author));
  };

  const updateAuthor: AdminHandler<"updateAuthor"> = async (req, res) => {
    const { workspaceId, authorId } = req.params;
    const { author, changed } = await deps.authors.update(workspaceId, authorId, req.body);
    if (changed) await record(workspaceId, signedInUser(res), "author.updated", author);
    res.json(toAuthor(author));
  };

  const removeAuthor: AdminHandler<"removeAuthor"> = async (req, res) => {
    const { workspaceId, authorId } = req.params;
    const author = await deps.authors.remove(workspaceId, authorId);
    await record(workspaceId, signedInUser(res), "author.removed", author);
    res.status(204).end();
  };

  return { listAuthors, createAuthor, updateAuthor, removeAuthor };
}
