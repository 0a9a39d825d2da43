import type { TargetedMouseEvent } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { ApiKey, BlogSort, BlogStatus } from "./api.js";

const SORTS: readonly string[] = ["newest", "oldest", "updated", "title"] satisfies BlogSort[];
const isSort = (value: string | null): value is BlogSort => value !== null && SORTS.includes(value);

/** A key status as the keys screen's address spells it (`?status=revoked`), and back. */
type KeyStatus = ApiKey["status"];
const KEY_STATUSES: readonly KeyStatus[] = ["Active", "Expired", "Revoked"];
const keyStatusOf = (param: string | null): KeyStatus | null =>
  KEY_STATUSES.find((status) => status.toLowerCase() === param) ?? null;

/**
 * History-API routing under the Vite base (`/dashboard/`). The server answers index.html for
 * every /dashboard/* path that is not a file, so each of these URLs can be reloaded or shared:
 *
 *   /dashboard/                          → the remembered (or first) workspace's blogs
 *   /dashboard/w/{ws}/keys[?status=active|expired|revoked]   API keys, optionally filtered
 *   /dashboard/w/{ws}/blogs[?status=…&q=…&sort=…]   blogs, optionally filtered, searched, sorted
 *   /dashboard/w/{ws}/blogs/new          editor for a new blog
 *   /dashboard/w/{ws}/blogs/{blogId}     editor for an existing blog
 *   /dashboard/w/{ws}/members            members and invitations
 *   /dashboard/w/{ws}/authors            the workspace's authors
 *   /dashboard/w/{ws}/media              the workspace's media library
 *   /dashboard/w/{ws}/webhooks           webhook endpoints
 *   /dashboard/w/{ws}/webhooks/{id}      one endpoint's delivery log
 *   /dashboard/account                   one's own name, email, password and sessions
 *
 * An invitation link is `/dashboard/#/join/{token}`: the token is in the fragment, which the
 * browser never sends to the server (join-link.ts reads it; app.tsx shows the join screen). A
 * password reset link, `/dashboard/#/reset/{token}`, works the same way (reset-link.ts), as does
 * an email change's confirmation link, `/dashboard/#/confirm-email/{token}` (confirm-email-link.ts).
 */
export type Route =
  | { name: "home" }
  | { name: "keys"; ws: string; status?: KeyStatus | null }
  | { name: "blogs"; ws: string; status: BlogStatus | null; q?: string; sort?: BlogSort }
  | { name: "blog"; ws: string; blogId: string | null }
  | { name: "members"; ws: string }
  | { name: "authors"; ws: string }
  | { name: "media"; ws: string }
  | { name: "webhooks"; ws: string }
  | { name: "webhookLog"; ws: string; endpointId: string }
  | { name: "account" }
  | { name: "notFound" };

const BASE = import.meta.env.BASE_URL.replace(/\/$/, "");

export function parseRoute(pathname: string, search: string): Route {
  if (!pathname.startsWith(BASE)) return { name: "notFound" };
  const parts = pathname
    .slice(BASE.length)
    .split("/")
    .filter((p) => p !== "")
    .map(decodeURIComponent);
  if (parts.length === 0) return { name: "home" };
  if (parts.length === 1 && parts[0] === "account") return { name: "account" };
  const [w, ws, section, id, ...rest] = parts;
  if (w !== "w" || ws === undefined || rest.length > 0) return { name: "notFound" };
  if (section === "keys" && id === undefined) {
    return { name: "keys", ws, status: keyStatusOf(new URLSearchParams(search).get("status")) };
  }
  if (section === "members" && id === undefined) return { name: "members", ws };
  if (section === "authors" && id === undefined) return { name: "authors", ws };
  if (section === "media" && id === undefined) return { name: "media", ws };
  if (section === "webhooks" && id === undefined) return { name: "webhooks", ws };
  if (section === "webhooks" && id !== undefined) return { name: "webhookLog", ws, endpointId: id };
  if (section === "blogs" && id === undefined) {
    const params = new URLSearchParams(search);
    const status = params.get("status");
    const sort = params.get("sort");
    return {
      name: "blogs",
      ws,
      status: status === "draft" || status === "released" ? status : null,
      q: params.get("q") ?? "",
      sort: isSort(sort) ? sort : "newest",
    };
  }
  if (section === "blogs" && id !== undefined) {
    return { name: "blog", ws, blogId: id === "new" ? null : id };
  }
  return { name: "notFound" };
}

export function hrefOf(route: Route): string {
  const ws = "ws" in route ? `${BASE}/w/${encodeURIComponent(route.ws)}` : "";
  switch (route.name) {
    case "keys":
      return `${ws}/keys${route.status ? `?status=${route.status.toLowerCase()}` : ""}`;
    case "members":
      return `${ws}/members`;
    case "authors":
      return `${ws}/authors`;
    case "media":
      return `${ws}/media`;
    case "webhooks":
      return `${ws}/webhooks`;
    case "webhookLog":
      return `${ws}/webhooks/${encodeURIComponent(route.endpointId)}`;
    case "account":
      return `${BASE}/account`;
    case "blogs":
      return `${ws}/blogs${blogsQuery(route)}`;
    case "blog":
      return `${ws}/blogs/${route.blogId === null ? "new" : encodeURIComponent(route.blogId)}`;
    default:
      return `${BASE}/`;
  }
}

/** The blog list's query string: only what differs from the defaults, in a stable order. */
function blogsQuery({ status, q, sort }: Extract<Route, { name: "blogs" }>): string {
  const params = new URLSearchParams();
  if (status) params.set("status", status);
  if (q) params.set("q", q);
  if (sort && sort !== "newest") params.set("sort", sort);
  const query = params.toString();
  return query === "" ? "" : `?${query}`;
}

const CHANGE = "pressroom:navigate";

/**
 * Asked before the dashboard leaves the screen shown (a link, `navigate`, Back or Forward) while
 * set: calling `proceed` leaves, not calling it stays. The editor sets one while it holds
 * unsaved changes; a reload or a closed tab is the browser's own `beforeunload` question.
 */
export type LeaveGuard = (proceed: () => void) => void;
let guard: LeaveGuard | null = null;
export function setLeaveGuard(next: LeaveGuard | null): void {
  guard = next;
}

/**
 * Each entry this page adds to the session history carries its position (`idx`), so a
 * Back or Forward can be measured, undone while the guard asks, and redone if it says leave.
 */
let position = 0;
const hasPosition = (state: unknown): state is { idx: number } =>
  typeof state === "object" && state !== null && "idx" in state && typeof state.idx === "number";
const positionOf = (state: unknown): number => (hasPosition(state) ? state.idx : 0);

/** Goes to `to` (unless the guard keeps the writer here; `force` skips it: the page's own moves). */
export function navigate(to: string, { replace = false, force = false } = {}): void {
  if (to === location.pathname + location.search) return;
  if (guard !== null && !force) {
    guard(() => navigate(to, { replace, force: true }));
    return;
  }
  if (replace) history.replaceState({ idx: position }, "", to);
  else history.pushState({ idx: ++position }, "", to);
  dispatchEvent(new Event(CHANGE));
}

/** The `popstate` of a move this module made itself: `undo` (taken back) or `redo` (allowed). */
let expecting: "undo" | "redo" | null = null;

/** Back and Forward: one listener for the page, asking the guard before the route changes. */
function onPopState(): void {
  if (!hasPosition(history.state)) {
    // An entry the page did not add (a fragment link: "Skip to content"): it stands where the
    // page is, so later moves are still measured right. Nothing to ask: the screen stays.
    history.replaceState({ idx: position }, "");
    expecting = null;
    return;
  }
  const to = positionOf(history.state);
  const delta = to - position;
  if (expecting === "undo") {
    expecting = null;
    return;
  }
  if (guard === null || expecting === "redo" || delta === 0) {
    expecting = null;
    position = to;
    dispatchEvent(new Event(CHANGE));
    return;
  }
  // The address goes back to this screen while the guard asks, and moves on only if it allows.
  expecting = "undo";
  history.go(-delta);
  guard(() => {
    expecting = "redo";
    history.go(delta);
  });
}

let listening = false;
function listen(): void {
  if (listening) return;
  listening = true;
  position = positionOf(history.state);
  history.replaceState({ idx: position }, "");
  addEventListener("popstate", onPopState);
}

const current = (): Route => parseRoute(location.pathname, location.search);

/** The current route; re-renders on back/forward and on `navigate`. */
export function useRoute(): Route {
  listen();
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const update = () => setRoute(current());
    addEventListener(CHANGE, update);
    return () => removeEventListener(CHANGE, update);
  }, []);
  return route;
}

/** Client-side navigation for a plain left click; new-tab clicks keep the browser's behaviour. */
export function onLinkClick(event: TargetedMouseEvent<HTMLAnchorElement>): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
    return;
  }
  event.preventDefault();
  const url = new URL(event.currentTarget.href);
  navigate(url.pathname + url.search);
}
