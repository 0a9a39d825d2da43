import { type ApiKey, type AuditEntry, api, call } from "../../api.js";
import { ErrorMessage, TimeAgo } from "../../components/status.js";
import { zonedTime } from "../../time.js";
import { useLoad } from "../../use-load.js";
import { limitText } from "./key-text.js";

interface ActivityProps {
  workspaceId: string;
  keys: readonly ApiKey[];
  /** Changes whenever the keys were changed here, to fetch the newest entries again. */
  version: number;
  now: number;
}

const limitOrDefault = (limit: AuditEntry["details"]["to"]) =>
  limit ? limitText(limit) : "the default";

/** One entry as a sentence: "Ada minted key “Website”", "Key “Website” expired". */
function describe(entry: AuditEntry, nameOf: (id: string | null) => string): string {
  const person = entry.actor?.name ?? "An operator (CLI)";
  // A script's work says so: "Ada (access token “Deploy bot”) minted …".
  const who =
    entry.accessToken === null ? person : `${person} (access token “${entry.accessToken.name}”)`;
  const key = nameOf(entry.keyId);
  switch (entry.action) {
    case "key.minted":
      return `${who} minted ${key}`;
    case "key.rolled":
      return `${who} rolled ${key} to a new key`;
    case "key.revoked":
      return `${who} revoked ${key}`;
    case "key.expired":
      return `${key[0]?.toUpperCase()}${key.slice(1)} expired`;
    case "key.limit_changed":
      return `${who} set the limit of ${key} to ${limitOrDefault(entry.details.to)}`;
    case "workspace.limit_changed":
      return `${who} set the workspace's default limit to ${limitOrDefault(entry.details.to)}`;
    case "workspace.preview_url_changed":
      return `${who} changed where preview links go`;
    case "workspace.owner_two_step_required":
      return `${who} required two-step sign-in of the workspace's owners`;
    case "workspace.owner_two_step_lifted":
      return `${who} stopped requiring two-step sign-in of the workspace's owners`;
    case "webhook.created":
      return `${who} added a webhook endpoint`;
    case "webhook.updated":
      return `${who} changed a webhook endpoint${changedText(entry.details.changed)}`;
    case "webhook.deleted":
      return `${who} deleted a webhook endpoint`;
    case "webhook.secret_rotated":
      return entry.details.previousSecretDropped
        ? `${who} rotated a webhook endpoint's signing secret and dropped the old one at once`
        : `${who} rotated a webhook endpoint's signing secret`;
    default:
      return describeBlog(entry, who) ?? describeTeam(entry, who);
  }
}

/** ": released Dec 1, 2026, 09:00 GMT+1, back to draft …": the times a schedule set. */
function scheduledTimes({ details }: AuditEntry): string {
  const parts = [
    details.publishAt ? `live ${zonedTime(details.publishAt)}` : null,
    details.unreleaseAt ? `back to draft ${zonedTime(details.unreleaseAt)}` : null,
  ].filter((p) => p !== null);
  return parts.length === 0 ? "" : `: ${parts.join(", ")}`;
}

/** Blog entries: "Ada released “Launch day”"; null for any other action. */
function describeBlog(entry: AuditEntry, who: string): string | null {
  const blog = `“${entry.details.blogTitle ?? "a blog"}”`;
  switch (entry.action) {
    case "blog.released":
      return `${who} released ${blog}`;
    case "blog.unreleased":
      return `${who} took ${blog} back to draft`;
    case "blog.removed":
      return `${who} removed the blog ${blog}`;
    case "blog.published":
      return `${who} published pending changes to ${blog}`;
    case "blog.discarded":
      return `${who} discarded pending changes to ${blog}`;
    case "blog.restored":
      return `${who} restored an earlier version of ${blog}`;
    case "blog.scheduled":
      return `${who} scheduled ${blog}${scheduledTimes(entry)}`;
    case "blog.schedule_cancelled":
      return `${who} cancelled the schedule of ${blog}`;
    case "blog.schedule_failed":
      return `${blog} could not be published at its scheduled time: its slug is taken (scheduled by ${who})`;
    default:
      return null;
  }
}

const roleText = (role: AuditEntry["details"]["role"]) =>
  role === "owner" ? "an owner" : "a member";

/** Team entries: "Ada invited someone as an owner", "Nina joined as a member". */
function describeTeam(entry: AuditEntry, who: string): string {
  const { details } = entry;
  const member = details.member?.name ?? "a former account";
  switch (entry.action) {
    case "invitation.created":
      return `${who} invited someone as ${roleText(details.role)}`;
    case "invitation.resent":
      return `${who} sent an invitation again, with a new link`;
    case "invitation.withdrawn":
      return details.reason === "inviter_not_owner"
        ? "An invitation was withdrawn: whoever sent it is no longer an owner"
        : `${who} withdrew an invitation`;
    case "member.added":
      return `${who} added ${member} as ${roleText(details.role)}`;
    case "member.joined":
      return `${member} joined as ${roleText(details.role)}`;
    case "member.role_changed":
      return `${who} made ${member} ${roleText(details.role)}`;
    case "member.removed":
      return `${who} removed ${member}`;
    case "member.left":
      return `${member} left the workspace`;
    default:
      return `${who}: ${entry.action}`;
  }
}

const SETTING_NAMES = {
  url: "URL",
  description: "description",
  events: "events",
  enabled: "on/off",
};

/** " (URL, on/off)": which settings a webhook endpoint's change was about. */
const changedText = (changed: AuditEntry["details"]["changed"]): string =>
  changed && changed.length > 0 ? ` (${changed.map((c) => SETTING_NAMES[c]).join(", ")})` : "";

/** The workspace's audit log, newest first, a page at a time. Every member may read it. */
export function KeyActivity({ workspaceId, keys, version, now }: ActivityProps) {
  const page = (cursor: string | null) =>
    call(
      api.GET("/workspaces/{workspaceId}/audit", {
        params: { path: { workspaceId }, query: cursor ? { cursor } : {} },
      }),
    );
  const activity = useLoad(
    async () => {
      const first = await page(null);
      return { entries: first.data, next: first.nextCursor };
    },
    [workspaceId],
    { refreshOn: [version] },
  );
  const entries = activity.data?.entries ?? null;
  const next = activity.data?.next ?? null;
  const error = activity.error?.message ?? null;
  const older = (cursor: string) =>
    activity.run(async () => {
      const more = await page(cursor);
      return { entries: [...(entries ?? []), ...more.data], next: more.nextCursor };
    });
  const names = new Map(keys.map((k) => [k.id, k.name]));
  const nameOf = (id: string | null) => (id ? `key “${names.get(id) ?? id}”` : "a key");

  return (
    <section class="card activity" aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      {error && <ErrorMessage message={error} onRetry={activity.reload} />}
      {entries?.length === 0 && <p class="muted">Nothing yet.</p>}
      {entries && entries.length > 0 && (
        <ol class="activity-list">
          {entries.map((entry) => (
            <li key={entry.id}>
              <span>{describe(entry, nameOf)}</span>{" "}
              <span class="sub">
                <TimeAgo iso={entry.at} now={now} />
              </span>
            </li>
          ))}
        </ol>
      )}
      {next && (
        <button type="button" class="button small" onClick={() => older(next)}>
          Show older activity
        </button>
      )}
    </section>
  );
}
