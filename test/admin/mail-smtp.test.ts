// Mail over SMTP (README, "Mail"; mail/smtp-mailer.ts): with SMTP_URL and MAIL_FROM set, each
// invitation's link is mailed to the invited email, in plain text and simple HTML. Tested
// against a real SMTP server (test/support/smtp-sink.ts): plain, STARTTLS and implicit TLS
// (`smtps://`), the server's certificate verified as Node verifies any (trusted here through
// NODE_EXTRA_CA_CERTS, so those run `pressroom start` as its own process); an untrusted
// certificate or a refusing server leaves the invitation made and the answer `sent: false`, and
// the warning logged names no link.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../server/src/platform/config.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { type ServerProcess, startServerProcess } from "../support/cli.js";
import { linkIn, type SmtpSink, startSmtpSink } from "../support/smtp-sink.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer } from "../support/test-server.js";

const FROM = "Pressroom <pressroom@example.com>";
interface CreatedInvitation {
  invitation: { id: string };
  link: string;
  sent: boolean;
  mail: "sent" | "failed" | "off";
}

let t: TestDb;
const processes: ServerProcess[] = [];
afterAll(() => {
  for (const p of processes) p.child.kill("SIGKILL");
});

beforeAll(async () => {
  t = await useTestDb();
});

let n = 0;
const freshEmail = () => {
  n += 1;
  return `invitee${n}@example.com`;
};

/** The owner of a server on `t.db`, signed in: set up on the first call, then signing in. */
async function ownerOn(url: string): Promise<{ owner: AdminClient; ws: string }> {
  const owner = new AdminClient(url);
  const setup = await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER);
  const me =
    setup.status === 201
      ? setup
      : await owner.post<{ workspaces: { id: string }[] }>("/session", {
          email: OWNER.email,
          password: OWNER.password,
        });
  const ws = me.body.workspaces[0]?.id ?? "";
  expect(ws).not.toBe("");
  return { owner, ws };
}

const invite = (owner: AdminClient, ws: string, email: string) =>
  owner.post<CreatedInvitation>(`/workspaces/${ws}/invitations`, { email, role: "member" });

/** `pressroom start` on the test database, mailing through `sink`. */
async function serverProcess(sink: SmtpSink, trust: boolean): Promise<ServerProcess> {
  const started = await startServerProcess({
    MONGODB_URI: t.uri,
    MONGODB_DB: t.name,
    SMTP_URL: sink.url,
    MAIL_FROM: FROM,
    LOG_LEVEL: "info",
    ...(trust && sink.caFile !== undefined ? { NODE_EXTRA_CA_CERTS: sink.caFile } : {}),
  });
  processes.push(started);
  return started;
}

describe("invitations by mail", () => {
  it("plain SMTP: the invited email gets the link the answer shows, and the answer says sent", async () => {
    const sink = await startSmtpSink();
    const server = await startTestServer(t.db, { SMTP_URL: sink.url, MAIL_FROM: FROM });
    const { owner, ws } = await ownerOn(server.url);
    const email = freshEmail();
    const res = await invite(owner, ws, email);
    expect([res.status, res.body.sent, res.body.mail]).toEqual([201, true, "sent"]);
    const mail = await sink.mailTo(email);
    expect(mail.parsed.subject).toBe(
      `${OWNER.name} invited you to ${OWNER.workspaceName} on Pressroom`,
    );
    expect(linkIn(mail, `${server.url}/dashboard/#/join/`)).toBe(res.body.link);
    expect(mail.parsed.html).toContain(`href="${res.body.link}"`);
    // The workspace's name is people's input: escaped in the HTML part.
    expect(mail.parsed.html).toContain("Olive&#39;s newsroom");
    expect(mail.parsed.text).toContain("It works once, for 7 days.");
    // Resent: mailed again, with the new link.
    const since = sink.mails.length;
    const resent = await owner.post<CreatedInvitation>(
      `/workspaces/${ws}/invitations/${res.body.invitation.id}/resend`,
    );
    expect([resent.status, resent.body.mail]).toEqual([200, "sent"]);
    const again = await sink.mailTo(email, { since });
    expect(linkIn(again, `${server.url}/dashboard/#/join/`)).toBe(resent.body.link);
  });

  it("a refusing server: the invitation is still made and listed, the answer says not sent, and the warning names no link", async () => {
    const sink = await startSmtpSink({ refuse: true });
    const server = await startTestServer(t.db, { SMTP_URL: sink.url, MAIL_FROM: FROM });
    const { owner, ws } = await ownerOn(server.url);
    const email = freshEmail();
    const res = await invite(owner, ws, email);
    expect([res.status, res.body.sent, res.body.mail]).toEqual([201, false, "failed"]);
    const pending = await owner.get<{ data: { id: string }[] }>(`/workspaces/${ws}/invitations`);
    expect(pending.body.data.map((i) => i.id)).toContain(res.body.invitation.id);
    const token = res.body.link.split("#/join/")[1] ?? "";
    const warning = server.logLines.find((l) => l.includes("mailing an invitation failed"));
    expect(warning).toBeDefined();
    expect(server.logLines.some((l) => l.includes(token))).toBe(false);
    expect(sink.mails).toEqual([]);
  });

  it.each([
    ["implicit TLS (smtps://)", "implicit"],
    ["STARTTLS (smtp:// upgraded)", "starttls"],
  ] as const)(
    "%s: mailed, the server's certificate verified; an untrusted one is refused (sent: false)",
    async (_name, tls) => {
      const sink = await startSmtpSink({ tls });
      expect(sink.url.startsWith(tls === "implicit" ? "smtps://" : "smtp://")).toBe(true);

      const trusting = await serverProcess(sink, true);
      const { owner, ws } = await ownerOn(trusting.url);
      const email = freshEmail();
      const res = await invite(owner, ws, email);
      expect([res.status, res.body.sent]).toEqual([201, true]);
      const mail = await sink.mailTo(email);
      expect(linkIn(mail, `${trusting.url}/dashboard/#/join/`)).toBe(res.body.link);

      const untrusting = await serverProcess(sink, false);
      const other = await ownerOn(untrusting.url);
      const refused = await invite(other.owner, other.ws, freshEmail());
      expect([refused.status, refused.body.sent, refused.body.mail]).toEqual([
        201,
        false,
        "failed",
      ]);
      expect(untrusting.output.join("")).toContain("mailing an invitation failed");
      expect(sink.mails).toHaveLength(1);
    },
  );
});

describe("mail settings", () => {
  it("SMTP_URL needs MAIL_FROM, takes only smtp:// or smtps://, and is never quoted in the error (it may hold a password)", () => {
    const problem = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      return "";
    };
    expect(problem({ SMTP_URL: "smtp://mail.example.com" })).toContain("SMTP_URL needs MAIL_FROM");
    const secret = "hunter2-secret-word";
    const bad = problem({ SMTP_URL: `http://user:${secret}@mail.example.com`, MAIL_FROM: FROM });
    expect(bad).toContain("SMTP_URL must be smtp://");
    expect(bad).not.toContain(secret);
    expect(problem({ SMTP_URL: "smtp://mail.example.com", MAIL_FROM: "not an address" })).toContain(
      "MAIL_FROM must be an address",
    );
    expect(problem({ MAIL_FROM: FROM })).toContain("MAIL_FROM needs SMTP_URL");
    expect(
      loadConfig({ SMTP_URL: `smtps://u:${secret}@mail.example.com:465`, MAIL_FROM: FROM }).mail,
    ).toEqual({ smtpUrl: `smtps://u:${secret}@mail.example.com:465`, from: FROM });
    expect(loadConfig({}).mail).toBeUndefined();
  });
});
