/** Outgoing mail, from SMTP_URL and MAIL_FROM (README, "Mail"; mail/smtp-mailer.ts). */
export interface MailSettings {
  /**
   * SMTP_URL: `smtp://[user:password@]host[:port]` (STARTTLS when offered) or `smtps://…`
   * (TLS from the start). It may hold a password: never logged, never quoted in an error.
   */
  readonly smtpUrl: string;
  /** MAIL_FROM: the sender, `pressroom@example.com` or `Pressroom <pressroom@example.com>`. */
  readonly from: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** An address as MAIL_FROM takes it: one `local@domain`, bare or in angle brackets after a name. */
const FROM =
  /^(?:[^<>\p{Cc}]{0,100}<[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/u;

/**
 * Mail is on when SMTP_URL is set; MAIL_FROM must then be set too. Called by platform/config.ts
 * with its env; pushes problems (never quoting SMTP_URL, which may hold a password), never throws.
 */
export function parseMail(env: Env, problems: string[]): MailSettings | undefined {
  const smtpUrl = env.SMTP_URL?.trim() || undefined;
  const from = env.MAIL_FROM?.trim() || undefined;
  if (smtpUrl === undefined) {
    if (from !== undefined) problems.push("MAIL_FROM needs SMTP_URL (unset: no mail is sent)");
    return undefined;
  }
  let url: URL | undefined;
  try {
    url = new URL(smtpUrl);
  } catch {
    url = undefined;
  }
  if (url === undefined || !["smtp:", "smtps:"].includes(url.protocol) || url.hostname === "") {
    problems.push(
      "SMTP_URL must be smtp://[user:password@]host[:port] or smtps://… (not shown: it may hold a password)",
    );
  }
  if (from === undefined) {
    problems.push(
      "SMTP_URL needs MAIL_FROM, the sender's address (e.g. Pressroom <pressroom@example.com>)",
    );
  } else if (!FROM.test(from)) {
    problems.push(
      `MAIL_FROM must be an address, or a name and an address in <> (got "${from.slice(0, 120)}")`,
    );
  }
  return { smtpUrl, from: from ?? "" };
}
