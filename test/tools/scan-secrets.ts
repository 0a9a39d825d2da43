// Run after the whole vitest run (npm test): no API key (raw or percent-encoded), session token,
// invitation token, password-reset or email-change token, webhook signing secret, TOTP secret, recovery code, sign-in
// challenge or password in any log line, stored document or response body that the run's servers and
// databases produced.
import { scanRun } from "../support/secret-scan.js";

const result = scanRun();
console.log(
  `secrets scan: ${result.files} files, ${Math.round(result.bytes / 1024)} KB of logs, documents and response bodies; ` +
    `${result.tokens} session tokens, ${result.invitationTokens} invitation tokens, ${result.resetTokens} password-reset tokens, ${result.emailChangeTokens} email-change tokens, ${result.webhookSecrets} webhook secrets, ${result.totpSecrets} TOTP secrets, ${result.recoveryCodes} recovery codes, ${result.challenges} sign-in challenges, ${result.passwords} passwords and API keys, raw or percent-encoded (up to 4 levels), looked for: ${result.findings.length} findings`,
);
if (result.files === 0) {
  console.error("secrets scan: nothing was recorded — did the suites run?");
  process.exit(1);
}
if (result.findings.length > 0) {
  console.error(`Secrets leaked:\n  ${[...new Set(result.findings)].slice(0, 50).join("\n  ")}`);
  process.exit(1);
}
