/**
 * The SMTP mailer (README, "Mail"): nodemailer, the mail library of Node, over the server in
 * SMTP_URL, from MAIL_FROM. `smtps://` speaks TLS from the first byte; `smtp://` upgrades with
 * STARTTLS whenever the server offers it. Either way the server's certificate is verified as
 * Node verifies any (NODE_EXTRA_CA_CERTS trusts a private CA). One connection per mail: an
 * invitation, a reset or an email change is rare, and no idle connection outlives its send.
 */
import { createTransport } from "nodemailer";
import type { MailSettings } from "../platform/mail-settings.js";
import {
  emailChangedText,
  emailChangeText,
  invitationText,
  type MailText,
  passwordResetText,
} from "./mail-texts.js";
import type { Mailer } from "./mailer.js";

/**
 * How long a send may wait on the mail server: an invitation's answer waits for its mail, so
 * a server that does not answer costs the owner seconds, not nodemailer's default minutes.
 */
export const SMTP_TIMEOUT_MS = 10_000;

export function smtpMailer(settings: MailSettings): Mailer {
  const transport = createTransport({
    url: settings.smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: 2 * SMTP_TIMEOUT_MS,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const send = async (to: string, mail: MailText) => {
    await transport.sendMail({ from: settings.from, to, ...mail });
  };
  return {
    sendInvitation: (m) => send(m.to, invitationText(m)),
    sendPasswordReset: (m) => send(m.to, passwordResetText(m)),
    sendEmailChange: (m) => send(m.to, emailChangeText(m)),
    sendEmailChanged: (m) => send(m.to, emailChangedText(m)),
  };
}
