/**
 * A real SMTP server for the mail tests (the `smtp-server` package, on 127.0.0.1:0), keeping
 * every message it accepts, parsed by `mailparser` as a mail client would (quoted-printable and
 * MIME decoded). It speaks plain SMTP, STARTTLS or implicit TLS with a certificate made for the
 * test by `openssl` (its CA file is there for a client to trust), or refuses every recipient.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { onFileEnd } from "./cleanup.js";
import {
  EMAIL_CHANGE_LINK,
  RESET_LINK,
  recordEmailChangeTokens,
  recordResetTokens,
} from "./secret-scan.js";

export interface SinkMail {
  /** The envelope's recipients. */
  readonly to: string[];
  readonly from: string;
  /** The whole message as received, headers included, for secret scans. */
  readonly raw: string;
  readonly parsed: ParsedMail;
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:PORT` or `smtps://…`: what SMTP_URL is set to. */
  readonly url: string;
  /** The certificate's PEM file (TLS sinks only): a client trusts it with NODE_EXTRA_CA_CERTS. */
  readonly caFile: string | undefined;
  readonly mails: SinkMail[];
  /** The first mail to `to` after `since` mails, waiting for it up to `timeoutMs`. */
  mailTo(to: string, options?: { since?: number; timeoutMs?: number }): Promise<SinkMail>;
  stop(): Promise<void>;
}

export interface SinkOptions {
  /** "plain": no TLS; "starttls": offers STARTTLS; "implicit": TLS from the first byte. */
  readonly tls?: "plain" | "starttls" | "implicit";
  /** Answer every RCPT TO with 550, as a server refusing to relay does. */
  readonly refuse?: boolean;
}

/** A self-signed certificate for 127.0.0.1 and localhost, made by openssl for one test file. */
function testCertificate(): { key: string; cert: string; certFile: string; dir: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "pressroom-smtp-"));
  const keyFile = path.join(dir, "key.pem");
  const certFile = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"],
      ...["-nodes", "-days", "2", "-subj", "/CN=127.0.0.1"],
      ...["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
      ...["-keyout", keyFile, "-out", certFile],
    ],
    { stdio: "ignore" },
  );
  return {
    key: readFileSync(keyFile, "utf8"),
    cert: readFileSync(certFile, "utf8"),
    certFile,
    dir,
  };
}

export async function startSmtpSink(options: SinkOptions = {}): Promise<SmtpSink> {
  const mode = options.tls ?? "plain";
  const certificate = mode === "plain" ? undefined : testCertificate();
  const mails: SinkMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    secure: mode === "implicit",
    ...(certificate === undefined
      ? { disabledCommands: ["STARTTLS"] }
      : { key: certificate.key, cert: certificate.cert }),
    authOptional: true,
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (options.refuse === true) {
        const refusal = Object.assign(new Error("Relay access denied"), { responseCode: 550 });
        callback(refusal);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw).then(
          (parsed) => {
            mails.push({
              to: session.envelope.rcptTo.map((r) => r.address),
              from: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
              raw,
              parsed,
            });
            // For the run's secrets scan: a reset or email-change link's token may show nowhere
            // but in its mail.
            const text = parsed.text ?? "";
            recordResetTokens([...text.matchAll(RESET_LINK)].flatMap((m) => m[1] ?? []));
            recordEmailChangeTokens(
              [...text.matchAll(EMAIL_CHANGE_LINK)].flatMap((m) => m[1] ?? []),
            );
            for (const wake of waiters) wake();
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  if (address === null || typeof address === "string") throw new Error("no SMTP port");
  const url = `${mode === "implicit" ? "smtps" : "smtp"}://127.0.0.1:${address.port}`;

  const mailTo: SmtpSink["mailTo"] = (to, { since = 0, timeoutMs = 10_000 } = {}) =>
    new Promise((resolve, reject) => {
      const find = () => mails.slice(since).find((m) => m.to.includes(to));
      const check = () => {
        const found = find();
        if (found === undefined) return false;
        clearTimeout(timer);
        waiters.delete(wake);
        resolve(found);
        return true;
      };
      const wake = () => void check();
      const timer = setTimeout(() => {
        waiters.delete(wake);
        reject(new Error(`no mail to ${to} within ${timeoutMs} ms (${mails.length} received)`));
      }, timeoutMs);
      waiters.add(wake);
      check();
    });

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (certificate !== undefined) rmSync(certificate.dir, { recursive: true, force: true });
  };
  onFileEnd(stop);
  return { url, caFile: certificate?.certFile, mails, mailTo, stop };
}

/** The first link in a mail's plain text that starts with `prefix` (e.g. `${origin}/dashboard/#/reset/`). */
export function linkIn(mail: SinkMail, prefix: string): string {
  const text = mail.parsed.text ?? "";
  const at = text.indexOf(prefix);
  if (at < 0) throw new Error(`no link starting ${prefix} in the mail`);
  return text.slice(at).split(/\s/)[0] ?? "";
}
