import {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  Router,
} from "express";
import type { BodyRenderer } from "../blogs/render-pool.js";
import { invitationUse } from "../invitations/invitation-use.js";
import type { Mailer } from "../mail/mailer.js";
import type { MediaStore } from "../media/media-store.js";
import type { AdminBodyLimits } from "../platform/config.js";
import { errorHandler } from "../platform/http/errors.js";
import { jsonBody, jsonBodyRoutes } from "../platform/http/json-body.js";
import type { SpecDocument } from "../platform/http/validator-warm-up.js";
import { passwordChange } from "../sessions/password-change.js";
import { codeSignIn } from "../sessions/second-step.js";
import { passwordSignIn } from "../sessions/sign-in.js";
import type { Stores } from "../stores.js";
import type { EmailChange } from "../users/email-change.js";
import type { PasswordReset } from "../users/password-reset.js";
import type { ManualLimits } from "../webhooks/manual-deliveries.js";
import { teamChanges } from "../workspaces/team-changes.js";
import { accountHandlers } from "./account-routes.js";
import { auditHandlers } from "./audit-routes.js";
import { authorHandlers } from "./author-routes.js";
import { blogHandlers, staleBlogAnswer } from "./blog-routes.js";
import { emailChangeHandlers } from "./email-change-routes.js";
import {
  blogWriteNamesVersion,
  dashboardOrigin,
  originCheck,
  requireMember,
  requireOwner,
  requireSession,
} from "./guards.js";
import { invitationHandlers } from "./invitation-routes.js";
import { keyHandlers } from "./key-routes.js";
import { limitHandlers } from "./limit-routes.js";
import { meView } from "./me-view.js";
import { mediaHandlers } from "./media-routes.js";
import { passwordResetHandlers } from "./password-reset-routes.js";
import { previewHandlers } from "./preview-routes.js";
import { publicFeedHandlers } from "./public-feed-routes.js";
import { refusalReplay } from "./refusal-replay.js";
import { renderAdmission } from "./render-admission.js";
import { sessionHandlers } from "./session-routes.js";
import { tokenHandlers } from "./token-routes.js";
import { requireTokenScope, tokenScopeOf, tokenScopesOf } from "./token-scopes.js";
import { transferHandlers } from "./transfer-routes.js";
import { transferTurns } from "./transfer-turns.js";
import { twoStepHandlers } from "./two-step-routes.js";
import { usageHandlers } from "./usage-routes.js";
import { webhookHandlers } from "./webhook-routes.js";
import { workspaceHandlers } from "./workspace-routes.js";

export interface AdminDeps {
  /** The validator of openapi/admin.yaml (platform/http/spec-validator.ts). */
  readonly specValidation: readonly RequestHandler[];
  /** openapi/admin.yaml itself: which operations take a JSON body (platform/http/json-body.ts). */
  readonly spec: SpecDocument;
  readonly publicOrigin: string | undefined;
  /** How large a JSON body each operation accepts (platform/config.ts, platform/http/json-body.ts). */
  readonly bodyLimits: AdminBodyLimits;
  readonly stores: Stores;
  /** The media library (media/media-store.ts). */
  readonly media: MediaStore;
  /** The render pool, asked before a blog's create or preview reads its body. */
  readonly renderer: Pick<BodyRenderer, "admit">;
  /** Mails invitation links when given (mail/mailer.ts); none without SMTP_URL. */
  readonly mailer?: Mailer | undefined;
  /** Password recovery (users/password-reset.ts), built by the composition root, which drains it. */
  readonly passwordReset: PasswordReset;
  /** Renders an import keeps going at once (admin.yaml `importBlogs`): part of its workspace's share. */
  readonly importRendersAtOnce: number;
  /** Email changes (users/email-change.ts), built by the composition root, which drains it. */
  readonly emailChange: EmailChange;
  /** Records each access token's use (`lastUsedAt`, batched by the composition root's recorder). */
  readonly tokenUsed: (hash: string) => void;
  /** Test events and redeliveries: how they reach the delivery worker, and their limits. */
  readonly webhooks: {
    /** Tells the delivery worker a test event or redelivery is due now; default nothing. */
    readonly nudge?: (() => void) | undefined;
    /** Limits on test events and redeliveries (webhooks/manual-deliveries.ts). */
    readonly limits?: ManualLimits | undefined;
  };
}

/** The operations whose bodies take BLOG_BODY_LIMIT_BYTES: a blog's Markdown, up to 200,000 characters. */
const LARGE_BODY_OPERATIONS: ReadonlySet<string> = new Set([
  "createBlog",
  "updateBlog",
  "previewBlogBody",
]);

/**
 * The admin API (openapi/admin.yaml), mounted at /api/admin with its own validator, so admin
 * rules never judge consumer requests nor the other way round.
 */
export function adminRouter(deps: AdminDeps): Router {
  const { users, workspaces, setup, sessions, throttle, keys, blogs, invitations } = deps.stores;
  const { rollKey, rateLimits, audit } = deps.stores;
  const W = "/workspaces/:workspaceId";
  const secureCookies = deps.publicOrigin?.startsWith("https:") ?? false;
  const { twoStep, signInChallenges: challenges } = deps.stores;
  const view = meView(users, workspaces, deps.emailChange, twoStep);
  const session = sessionHandlers({
    view,
    setup,
    sessions,
    signIn: passwordSignIn({ users, sessions, challenges, throttle }),
    secureCookies,
    passwordResetByMail: deps.mailer !== undefined,
  });
  const reset = passwordResetHandlers(deps.passwordReset, deps.publicOrigin);
  const account = accountHandlers({
    changePassword: passwordChange({ users, sessions, throttle }),
    users,
    me: view.me,
    sessions,
    secureCookies,
  });
  const email = emailChangeHandlers({
    emailChange: deps.emailChange,
    me: view.me,
    publicOrigin: deps.publicOrigin,
  });
  const invitation = invitationHandlers({
    invitations,
    use: invitationUse({ invitations, throttle, users, workspaces, sessions, audit }),
    audit,
    users,
    workspaces,
    sessions,
    me: view.me,
    publicOrigin: deps.publicOrigin,
    mailer: deps.mailer,
    secureCookies,
  });
  const ws = workspaceHandlers(workspaces, teamChanges({ workspaces, invitations, audit }));
  const key = keyHandlers(keys, rollKey, users);
  const limits = limitHandlers(rateLimits);
  const auditLog = auditHandlers(audit, users);
  const preview = previewHandlers({
    workspaces,
    blogs,
    tokens: deps.stores.preview.tokens,
    audit,
  });
  const feeds = publicFeedHandlers({ feeds: deps.stores.publicFeeds, audit });
  const blog = blogHandlers(blogs, users, deps.stores.blogAuthors);
  const author = authorHandlers({ authors: deps.stores.authors, audit });
  const media = mediaHandlers({ media: deps.media });
  const turns = transferTurns();
  const transfer = transferHandlers({
    transfer: deps.stores.transfer,
    turns,
    rendersAtOnce: deps.importRendersAtOnce,
  });
  const usage = usageHandlers(deps.stores.usage, keys);
  const hooks = webhookHandlers({
    endpoints: deps.stores.webhookEndpoints,
    audit,
    log: deps.stores.deliveryLog,
    manual: deps.stores.manualDeliveries({
      ...(deps.webhooks.nudge === undefined ? {} : { nudge: deps.webhooks.nudge }),
      ...(deps.webhooks.limits === undefined ? {} : { limits: deps.webhooks.limits }),
    }),
  });
  const member = requireMember(workspaces, users);
  const twoSteps = twoStepHandlers({
    twoStep,
    signInWithCode: codeSignIn({ challenges, users, twoStep, sessions, throttle }),
    me: view.me,
    users,
    workspaces,
    audit,
    secureCookies,
  });

  const router = Router();
  router.use((req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    res.locals.publicOrigin = dashboardOrigin(req, deps.publicOrigin);
    next();
  });
  // Host and Origin first (guards.ts): a refused request's body is never parsed.
  router.use(originCheck(deps.publicOrigin));
  // A request a limit has just refused, repeated by the same session, is refused again before
  // anything is looked up or read (refusal-replay.ts).
  const refusals = refusalReplay();
  router.use(refusals.replay);
  // Bodies (platform/http/json-body.ts), read before the validator, which judges them, and only for the
  // operations admin.yaml gives one. A blog's create, update and preview take up to
  // BLOG_BODY_LIMIT_BYTES (its bodyMarkdown may hold 200,000 characters), and only from a
  // signed-in user: nobody without an account gets megabytes parsed. Every other operation, the
  // open ones included, takes ADMIN_BODY_LIMIT_BYTES.
  const signedIn = requireSession(sessions, {
    authenticate: deps.stores.accessTokens.authenticate,
    used: deps.tokenUsed,
  });
  const scopes = tokenScopesOf(deps.spec);
  const tokenScope = requireTokenScope(scopes);
  const token = tokenHandlers(deps.stores.accessTokens);
  const blogBody = jsonBody({ bytes: deps.bodyLimits.blogBytes, setting: "BLOG_BODY_LIMIT_BYTES" });
  const smallBody = jsonBody({
    bytes: deps.bodyLimits.adminBytes,
    setting: "ADMIN_BODY_LIMIT_BYTES",
  });
  const withBodies = jsonBodyRoutes(deps.spec);
  const unknown = [...LARGE_BODY_OPERATIONS].filter(
    (id) => !withBodies.some((route) => route.operationId === id),
  );
  if (unknown.length > 0) throw new Error(`admin.yaml has no JSON body for ${unknown.join(", ")}`);
  // A member's only, and refused before the read when the render would be (render-admission.ts).
  const beforeRead: Record<string, readonly RequestHandler<{ workspaceId: string }>[]> = {
    createBlog: [member, renderAdmission(deps.renderer, "save")],
    previewBlogBody: [member, renderAdmission(deps.renderer, "preview")],
    updateBlog: [member, blogWriteNamesVersion],
  };
  for (const { operationId, method, path } of withBodies) {
    if (LARGE_BODY_OPERATIONS.has(operationId)) {
      router[method](path, signedIn, ...(beforeRead[operationId] ?? []), ...blogBody);
    }
  }
  // An import's set (up to IMPORT_BODY_LIMIT_BYTES) is read only for a member whose token, if
  // any, may write blogs, and only when the workspace's turn is free (transfer-turns.ts).
  const importBody = jsonBody({
    bytes: deps.bodyLimits.importBytes,
    setting: "IMPORT_BODY_LIMIT_BYTES",
  });
  router.post(
    `${W}/imports`,
    signedIn,
    member,
    tokenScopeOf(scopes, "importBlogs"),
    (req: Request<{ workspaceId: string }>, _res: Response, next: NextFunction) => {
      turns.check(req.params.workspaceId);
      next();
    },
    ...importBody,
  );
  for (const { operationId, method, path } of withBodies) {
    if (!LARGE_BODY_OPERATIONS.has(operationId) && operationId !== "importBlogs") {
      router[method](path, ...smallBody);
    }
  }
  // Every write of a blog names the version it was made on (admin.yaml, "Conditional writes"):
  // without If-Match it is refused (428) once the writer is known to be a member, before the
  // validator (which would call the missing header a 400). updateBlog's is above, before its body.
  for (const [method, path] of [
    ["delete", `${W}/blogs/:blogId`],
    ["post", `${W}/blogs/:blogId/release`],
    ["post", `${W}/blogs/:blogId/unrelease`],
    ["post", `${W}/blogs/:blogId/publish`],
    ["post", `${W}/blogs/:blogId/discard`],
    ["post", `${W}/blogs/:blogId/revisions/:revisionId/restore`],
    ["put", `${W}/blogs/:blogId/schedule`],
  ] as const) {
    router[method](path, signedIn, member, blogWriteNamesVersion);
  }
  router.use(...deps.specValidation);

  // Open to everyone.
  router.get("/setup", session.getSetupStatus);
  router.get("/session", session.getSession);
  router.post("/setup", session.runSetup);
  router.post("/session", session.signIn);
  router.post("/session/two-step", twoSteps.signInWithCode);
  router.post("/invitations/lookup", invitation.lookUpInvitation);
  router.post("/invitations/accept", invitation.acceptInvitation);
  router.post("/password-resets", reset.requestPasswordReset);
  router.post("/password-resets/complete", reset.completePasswordReset);
  router.post("/email-changes/confirm", email.confirmEmailChange);

  // Signed-in users only; one with an access token only where the operation takes one.
  router.use(signedIn, tokenScope);
  router.delete("/session", session.signOut);
  router.get("/me", session.getMe);
  router.patch("/me", account.updateMe);
  router.post("/me/password", account.changePassword);
  router.post("/me/email", email.changeEmail);
  router.delete("/me/email", email.cancelEmailChange);
  router.delete("/me/sessions", account.signOutEverywhere);
  router.post("/me/two-step", twoSteps.startTwoStep);
  router.post("/me/two-step/confirm", twoSteps.confirmTwoStep);
  router.post("/me/two-step/turn-off", twoSteps.turnOffTwoStep);
  router.post("/me/two-step/recovery-codes", twoSteps.renewRecoveryCodes);
  router.get("/me/tokens", token.listAccessTokens);
  router.post("/me/tokens", token.createAccessToken);
  router.delete("/me/tokens/:tokenId", token.revokeAccessToken);
  router.get("/workspaces", ws.listWorkspaces);
  router.post("/workspaces", ws.createWorkspace);

  // Members of the workspace only (others get 404); some actions for its owner only.
  router.use(W, member);
  router.patch(W, requireOwner, ws.renameWorkspace);
  router.get(`${W}/members`, ws.listMembers);
  router.post(`${W}/members`, requireOwner, ws.addMember);
  router.patch(`${W}/members/:userId`, requireOwner, ws.changeMemberRole);
  // Owners remove anyone; a member only themselves (leaving): checked by the handler.
  router.delete(`${W}/members/:userId`, ws.removeMember);
  router.get(`${W}/invitations`, requireOwner, invitation.listInvitations);
  router.post(`${W}/invitations`, requireOwner, invitation.createInvitation);
  router.delete(`${W}/invitations/:invitationId`, requireOwner, invitation.withdrawInvitation);
  router.post(`${W}/invitations/:invitationId/resend`, requireOwner, invitation.resendInvitation);
  router.get(`${W}/keys`, key.listKeys);
  router.post(`${W}/keys`, key.mintKey);
  router.post(`${W}/keys/:keyId/revoke`, key.revokeKey);
  router.patch(`${W}/keys/:keyId`, requireOwner, key.updateKey);
  router.post(`${W}/keys/:keyId/roll`, key.rollKey);
  router.get(`${W}/rate-limit`, limits.getWorkspaceRateLimit);
  router.put(`${W}/rate-limit`, requireOwner, limits.setWorkspaceRateLimit);
  router.put(`${W}/preview-url`, requireOwner, preview.setPreviewUrl);
  router.put(`${W}/owner-two-step`, requireOwner, twoSteps.setOwnerTwoStep);
  router.put(`${W}/public-feeds`, requireOwner, feeds.setPublicFeeds);
  router.delete(`${W}/public-feeds`, requireOwner, feeds.turnOffPublicFeeds);
  router.post(`${W}/public-feeds/renew`, requireOwner, feeds.renewPublicFeedId);
  router.get(`${W}/audit`, auditLog.listAudit);
  router.get(`${W}/keys/:keyId/usage`, usage.getKeyUsage);
  router.get(`${W}/usage`, usage.getWorkspaceUsage);
  router.get(`${W}/blogs`, blog.listAdminBlogs);
  router.get(`${W}/blog-counts`, blog.countAdminBlogs);
  router.post(`${W}/blogs`, blog.createBlog);
  router.post(`${W}/blogs/preview`, blog.previewBlogBody);
  router.get(`${W}/blogs/:blogId`, blog.getAdminBlog);
  router.patch(`${W}/blogs/:blogId`, blog.updateBlog);
  router.delete(`${W}/blogs/:blogId`, blog.removeBlog);
  router.post(`${W}/blogs/:blogId/release`, blog.releaseBlog);
  router.post(`${W}/blogs/:blogId/unrelease`, blog.unreleaseBlog);
  router.post(`${W}/blogs/:blogId/publish`, blog.publishBlogChanges);
  router.post(`${W}/blogs/:blogId/discard`, blog.discardBlogChanges);
  router.put(`${W}/blogs/:blogId/schedule`, blog.scheduleBlog);
  router.post(`${W}/blogs/:blogId/preview-link`, preview.createPreviewLink);
  router.post(`${W}/imports`, transfer.importBlogs);
  router.get(`${W}/export`, transfer.exportWorkspace);
  router.get(`${W}/blogs/:blogId/revisions`, blog.listBlogRevisions);
  router.get(`${W}/authors`, author.listAuthors);
  router.post(`${W}/authors`, author.createAuthor);
  router.patch(`${W}/authors/:authorId`, author.updateAuthor);
  router.delete(`${W}/authors/:authorId`, author.removeAuthor);
  router.get(`${W}/media`, media.listMedia);
  router.post(`${W}/media`, media.uploadMedia);
  router.get(`${W}/media/:mediaId`, media.getMedia);
  router.patch(`${W}/media/:mediaId`, media.updateMedia);
  router.delete(`${W}/media/:mediaId`, media.deleteMedia);
  router.get(`${W}/blogs/:blogId/revisions/:revisionId`, blog.getBlogRevision);
  router.post(`${W}/blogs/:blogId/revisions/:revisionId/restore`, blog.restoreBlogRevision);
  // Webhooks: every member reads; only owners change endpoints or queue deliveries.
  const H = `${W}/webhooks/:endpointId`;
  router.get(`${W}/webhooks`, hooks.listWebhookEndpoints);
  router.post(`${W}/webhooks`, requireOwner, hooks.createWebhookEndpoint);
  router.get(H, hooks.getWebhookEndpoint);
  router.patch(H, requireOwner, hooks.updateWebhookEndpoint);
  router.delete(H, requireOwner, hooks.deleteWebhookEndpoint);
  router.post(`${H}/rotate-secret`, requireOwner, hooks.rotateWebhookSecret);
  router.post(`${H}/test`, requireOwner, hooks.sendTestWebhook);
  router.get(`${H}/deliveries`, hooks.listWebhookDeliveries);
  router.post(`${H}/deliveries/:deliveryId/redeliver`, requireOwner, hooks.redeliverWebhook);
  // Errors end here, as in the consumer router. Besides saving the walk through later mounts:
  // when response validation (tests, development) refuses an error response, the validator
  // hands its own error to the `next` of this router, which must still lead to an error
  // handler; from the app's last handler it led to Express's HTML page, stack trace included.
  router.use(refusals.remember, staleBlogAnswer(deps.stores.blogAuthors), errorHandler);
  return router;
}
