import type { AuditAction, AuditEntry } from "../../api.js";
import { zonedTime } from "../../time.js";
import { limitText } from "./key-text.js";

/**
 * What one entry says, given who did it ("Ada", "Ada (access token “Deploy bot”)") and the key
 * it is about ("key “Website”", "a key").
 */
type Sentence = (entry: AuditEntry, who: string, key: string) => string;

const limitOrDefault = (limit: AuditEntry["details"]["to"]) =>
  limit ? limitText(limit) : "the default";

/** ": released Dec 1, 2026, 09:00 GMT+1, back to draft …": the times a schedule set. */
function scheduledTimes({ details }: AuditEntry): string {
  const parts = [
    details.publishAt ? `live ${zonedTime(details.publishAt)}` : null,
    details.unreleaseAt ? `back to draft ${zonedTime(details.unreleaseAt)}` : null,
  ].filter((p) => p !== null);
  return parts.length === 0 ? "" : `: ${parts.join(", ")}`;
}

const roleText = (role: AuditEntry["details"]["role"]) =>
  role === "owner" ? "an owner" : "a member";
const blogOf = (entry: AuditEntry) => `“${entry.details.blogTitle ?? "a blog"}”`;
const authorOf = (entry: AuditEntry) => `“${entry.details.authorName ?? "an author"}”`;
const memberOf = (entry: AuditEntry) => entry.details.member?.name ?? "a former account";

const SETTING_NAMES = {
  url: "URL",
  description: "description",
  events: "events",
  enabled: "on/off",
};

/** " (URL, on/off)": which settings a webhook endpoint's change was about. */
const changedText = (changed: AuditEntry["details"]["changed"]): string =>
  changed && changed.length > 0 ? ` (${changed.map((c) => SETTING_NAMES[c]).join(", ")})` : "";

/**
 * Every audit action admin.yaml names (`AuditAction`), as a sentence. The type is a mapped one
 * over that union: an action added to the spec and not worded here fails the compile.
 */
const SENTENCES: { readonly [A in AuditAction]: Sentence } = {
  "key.minted": (_, who, key) => `${who} minted ${key}`,
  "key.rolled": (_, who, key) => `${who} rolled ${key} to a new key`,
  "key.revoked": (_, who, key) => `${who} revoked ${key}`,
  "key.expired": (_, __, key) => `${key[0]?.toUpperCase()}${key.slice(1)} expired`,
  "key.limit_changed": (e, who, key) =>
    `${who} set the limit of ${key} to ${limitOrDefault(e.details.to)}`,
  "workspace.limit_changed": (e, who) =>
    `${who} set the workspace's default limit to ${limitOrDefault(e.details.to)}`,
  "workspace.preview_url_changed": (_, who) => `${who} changed where preview links go`,
  "workspace.owner_two_step_required": (_, who) =>
    `${who} required two-step sign-in of the workspace's owners`,
  "workspace.owner_two_step_lifted": (_, who) =>
    `${who} stopped requiring two-step sign-in of the workspace's owners`,
  "workspace.public_feeds_on": (_, who) => `${who} turned on public feeds`,
  "workspace.public_feeds_changed": (_, who) => `${who} changed the feeds' link template`,
  "workspace.public_feeds_off": (_, who) => `${who} turned off public feeds`,
  "workspace.public_feed_renewed": (_, who) => `${who} gave the feeds new addresses`,
  "webhook.created": (_, who) => `${who} added a webhook endpoint`,
  "webhook.updated": (e, who) =>
    `${who} changed a webhook endpoint${changedText(e.details.changed)}`,
  "webhook.deleted": (_, who) => `${who} deleted a webhook endpoint`,
  "webhook.secret_rotated": (e, who) =>
    e.details.previousSecretDropped
      ? `${who} rotated a webhook endpoint's signing secret and dropped the old one at once`
      : `${who} rotated a webhook endpoint's signing secret`,
  "blog.released": (e, who) => `${who} released ${blogOf(e)}`,
  "blog.unreleased": (e, who) => `${who} took ${blogOf(e)} back to draft`,
  "blog.removed": (e, who) => `${who} removed the blog ${blogOf(e)}`,
  "blog.published": (e, who) => `${who} published pending changes to ${blogOf(e)}`,
  "blog.discarded": (e, who) => `${who} discarded pending changes to ${blogOf(e)}`,
  "blog.restored": (e, who) => `${who} restored an earlier version of ${blogOf(e)}`,
  "blog.scheduled": (e, who) => `${who} scheduled ${blogOf(e)}${scheduledTimes(e)}`,
  "blog.schedule_cancelled": (e, who) => `${who} cancelled the schedule of ${blogOf(e)}`,
  "blog.schedule_failed": (e, who) =>
    `${blogOf(e)} could not be released at its scheduled time: its slug is taken or an image lacks alt text (scheduled by ${who})`,
  "author.created": (e, who) => `${who} added the author ${authorOf(e)}`,
  "author.updated": (e, who) => `${who} changed the author ${authorOf(e)}`,
  "author.removed": (e, who) => `${who} removed the author ${authorOf(e)}`,
  "invitation.created": (e, who) => `${who} invited someone as ${roleText(e.details.role)}`,
  "invitation.resent": (_, who) => `${who} sent an invitation again, with a new link`,
  "invitation.withdrawn": (e, who) =>
    e.details.reason === "inviter_not_owner"
      ? "An invitation was withdrawn: whoever sent it is no longer an owner"
      : `${who} withdrew an invitation`,
  "member.added": (e, who) => `${who} added ${memberOf(e)} as ${roleText(e.details.role)}`,
  "member.joined": (e) => `${memberOf(e)} joined as ${roleText(e.details.role)}`,
  "member.role_changed": (e, who) => `${who} made ${memberOf(e)} ${roleText(e.details.role)}`,
  "member.removed": (e, who) => `${who} removed ${memberOf(e)}`,
  "member.left": (e) => `${memberOf(e)} left the workspace`,
};

/**
 * One entry as a sentence: "Ada minted key “Website”", "Key “Website” expired". A server newer
 * than this page may log an action it does not know yet: that one reads "Ada: <action>".
 */
export function describeEntry(entry: AuditEntry, nameOf: (id: string | null) => string): string {
  const person = entry.actor?.name ?? "An operator (CLI)";
  // A script's work says so: "Ada (access token “Deploy bot”) minted …".
  const who =
    entry.accessToken === null ? person : `${person} (access token “${entry.accessToken.name}”)`;
  const sentence: Sentence | undefined = Object.hasOwn(SENTENCES, entry.action)
    ? SENTENCES[entry.action]
    : undefined;
  return sentence ? sentence(entry, who, nameOf(entry.keyId)) : `${who}: ${entry.action}`;
}
