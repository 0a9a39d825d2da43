import type { AuthorsStore } from "../authors/authors-store.js";
import { authorValidatorOf, toConsumerAuthor } from "../blogs/blog-authors.js";
import { notFound } from "../platform/domain-error.js";
import { notModified, validatorEtag } from "../platform/http/conditional.js";
import type { AuthorList, ConsumerHandler } from "../platform/http/consumer-types.js";
import { requestWorkspace } from "./authenticate.js";

/**
 * listAuthors and getAuthorBySlug (openapi.yaml, "Authors"): the key's workspace's authors, the
 * same in both perspectives (an author is not a draft), under the perspective's ETag kind. The
 * list is read whole (at most 200), then its ETag: the authors are the content.
 */
export function authorHandlers(authors: Pick<AuthorsStore, "list" | "bySlug">, etagKind: string) {
  const listAuthors: ConsumerHandler<"listAuthors"> = async (req, res) => {
    const docs = await authors.list(requestWorkspace(res));
    const etag = validatorEtag(`${etagKind}authors`, docs.map(authorValidatorOf));
    if (notModified(req.get("if-none-match"), res, etag)) return;
    res.json({ data: docs.map(toConsumerAuthor) } satisfies AuthorList);
  };

  const getAuthorBySlug: ConsumerHandler<"getAuthorBySlug"> = async (req, res) => {
    const doc = await authors.bySlug(requestWorkspace(res), req.params.slug);
    if (doc === null) throw notFound("Author not found.");
    const etag = validatorEtag(`${etagKind}author`, [authorValidatorOf(doc)]);
    if (notModified(req.get("if-none-match"), res, etag)) return;
    res.json(toConsumerAuthor(doc));
  };

  return { listAuthors, getAuthorBySlug };
}
