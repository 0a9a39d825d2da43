/**
 * What Pressroom mails: invitation links, password-reset links, email-change confirmation links
 * and the notice of a changed email (README, "Mail"). With
 * `SMTP_URL` set, the SMTP mailer (smtp-mailer.ts) sends them; without it there is no mailer:
 * the owner hands an invitation link over (the dashboard shows it once), and an operator makes
 * a reset link on the command line. A deployment that embeds the server may pass its own
 * mailer to `createApp` instead.
 *
 * Each `link` holds a secret token: a mailer must not log it, nor put it in an error it throws
 * (a failure is logged without the error's message all the same).
 */
export interface Mailer {
  sendInvitation(invitation: InvitationMail): Promise<void>;
  sendPasswordReset(reset: PasswordResetMail): Promise<void>;
  /** The link confirming an email change, to the new address. */
  sendEmailChange(change: EmailChangeMail): Promise<void>;
  /** The notice that an account's email changed, to the old address (no link). */
  sendEmailChanged(notice: EmailChangedMail): Promise<void>;
}

export interface InvitationMail {
  /** The invited email. */
  to: string;
  /** The one-time link, `…/dashboard/#/join/{token}`. */
  link: string;
  workspaceName: string;
  /** The inviting owner's name. */
  invitedBy: string;
}

export interface PasswordResetMail {
  /** The account's email. */
  to: string;
  /** The account holder's name. */
  name: string;
  /** The one-time link, `…/dashboard/#/reset/{token}`. */
  link: string;
  /** How long the link works, in minutes. */
  minutes: number;
}

export interface EmailChangeMail {
  /** The new email, asked for. */
  to: string;
  /** The account holder's name. */
  name: string;
  /** The account's email now, which the link replaces. */
  currentEmail: string;
  /** The one-time link, `…/dashboard/#/confirm-email/{token}`. */
  link: string;
  /** How long the link works, in hours. */
  hours: number;
}

export interface EmailChangedMail {
  /** The old email. */
  to: string;
  /** The account holder's name. */
  name: string;
  /** The account's email now. */
  newEmail: string;
}
