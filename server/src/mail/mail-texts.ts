/**
 * The text of every mail Pressroom sends: a subject, plain text, and a simple HTML version of
 * the same words (no images, no tracking, no remote resources). Names and workspace names are
 * people's input: HTML-escaped in the HTML part, and kept out of the subject's line breaks.
 */
import type {
  EmailChangedMail,
  EmailChangeMail,
  InvitationMail,
  PasswordResetMail,
} from "./mailer.js";

export interface MailText {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** One line, as a header needs it: control characters (line breaks among them) become spaces. */
const oneLine = (s: string): string => s.replace(/\p{Cc}+/gu, " ").trim();

/** Paragraphs of plain text, and the same as HTML with the link (if any) as a link. */
function compose(subject: string, paragraphs: readonly string[], link: string | null): MailText {
  const text = `${paragraphs.join("\n\n")}\n`;
  const html = [
    "<!doctype html>",
    '<html><body style="font-family: system-ui, sans-serif; line-height: 1.5">',
    ...paragraphs.map((p) =>
      p === link
        ? `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`
        : `<p>${escapeHtml(p)}</p>`,
    ),
    "</body></html>",
  ].join("\n");
  return { subject: oneLine(subject), text, html };
}

export function invitationText(m: InvitationMail): MailText {
  const workspace = oneLine(m.workspaceName);
  const who = oneLine(m.invitedBy);
  return compose(
    `${who} invited you to ${workspace} on Pressroom`,
    [
      `${who} invited you to join the workspace "${workspace}" on Pressroom, where its team writes and releases its blogs.`,
      "Open this link to accept:",
      m.link,
      "It works once, for 7 days. If you were not expecting it, you can ignore this mail.",
    ],
    m.link,
  );
}

export function passwordResetText(m: PasswordResetMail): MailText {
  return compose(
    "Choose a new Pressroom password",
    [
      `Hello ${oneLine(m.name)},`,
      `someone asked to reset the password of the Pressroom account ${m.to}. To choose a new one, open this link:`,
      m.link,
      `It works once, for ${m.minutes} minutes. Choosing a new password signs the account out everywhere.`,
      "If you did not ask for this, ignore this mail: your password stays as it is.",
    ],
    m.link,
  );
}

export function emailChangeText(m: EmailChangeMail): MailText {
  return compose(
    "Confirm your new Pressroom email",
    [
      `Hello ${oneLine(m.name)},`,
      `someone signed in to the Pressroom account ${m.currentEmail} asked to use this address, ${m.to}, for it instead. To confirm, open this link:`,
      m.link,
      `It works once, for ${m.hours} hours. Until then the account keeps its email.`,
      "If you did not ask for this, ignore this mail: nothing changes.",
    ],
    m.link,
  );
}

export function emailChangedText(m: EmailChangedMail): MailText {
  return compose(
    "Your Pressroom email was changed",
    [
      `Hello ${oneLine(m.name)},`,
      `your Pressroom email was changed to ${m.newEmail}. This address, ${m.to}, no longer signs in to the account, and password-reset links sent to it no longer work.`,
      "If you did not make this change, tell the operator of your Pressroom server at once.",
    ],
    null,
  );
}
