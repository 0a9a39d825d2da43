import type { Page, Request } from "playwright-core";
import { expect } from "vitest";

/**
 * Everything a page does that a person with the browser's console open would see as a problem:
 * console errors and warnings (failed resources, CSP violations), uncaught errors, failed
 * requests (not those the browser cancels because the page was left) and responses with status
 * ≥ 400. A browser suite declares the ones a step provokes on purpose (`expectProblems`) and
 * checks after each step that the ones seen are exactly those (`assertNoProblems`): a normal
 * session raises none.
 */
export interface PageProblems {
  /** Patterns of problems the current step provokes on purpose; each must be seen at least once. */
  expectProblems(...patterns: RegExp[]): void;
  /** Fails on a problem seen and not declared, or declared and not seen; then starts afresh. */
  assertNoProblems(): Promise<void>;
  /** Records a problem the suite itself noticed (a request to somewhere it must not go). */
  record(problem: string): void;
}

/**
 * Requests the dashboard cancels on purpose: a preview that newer typing made stale, the counts
 * of a search typed on (or left), the editor's list of the workspace's authors (read beside the
 * blog for the Authors field, and cancelled when the editor is left or reloaded before it
 * answered). An abort of those is by design, not a failure.
 */
const CANCELLABLE = /\/blogs\/preview$|\/blog-counts(\?|$)|\/workspaces\/[^/]+\/authors$/;

export function watchPageProblems(page: Page): PageProblems {
  const problems: string[] = [];
  const expected: RegExp[] = [];
  // A request of a document since left (an image still loading when a step moves on, a screen's
  // timed refresh) is cancelled by the browser, as for anyone leaving a page mid-load, not failed.
  // So each request is marked with the document that sent it. The page's navigations are counted
  // as they start (`started`), and as the new document takes over (`current`, at the main frame's
  // `framenavigated` after a navigation started): until then the old document still runs and
  // may still send, a timer going off while the next page is on its way. A request is the left
  // document's when a navigation started after the document that sent it. A navigation within
  // the app (history.pushState) starts no request and is not one: what the app cancels there
  // must be in CANCELLABLE.
  let started = 0;
  let current = 0;
  const documentOf = new WeakMap<Request, number>();
  page.on("request", (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) started++;
    else documentOf.set(request, current);
  });
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) current = started;
  });
  page.on("pageerror", (err) => problems.push(`pageerror ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error" || msg.type() === "warning") {
      problems.push(`console.${msg.type()} ${msg.text()} at ${msg.location().url}`);
    }
  });
  page.on("requestfailed", (request) => {
    const failure = request.failure()?.errorText;
    if (failure === "net::ERR_ABORTED") {
      if (CANCELLABLE.test(request.url())) return;
      if ((documentOf.get(request) ?? started) < started) return;
    }
    problems.push(`requestfailed ${request.method()} ${request.url()} ${failure}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) {
      problems.push(
        `response ${response.status()} ${response.request().method()} ${response.url()}`,
      );
    }
  });
  return {
    expectProblems: (...patterns) => expected.push(...patterns),
    record: (problem) => problems.push(problem),
    async assertNoProblems() {
      await page.evaluate(() => 0); // a round trip delivers the events of everything before it
      const seen = problems.splice(0);
      const patterns = expected.splice(0);
      expect({
        unexpected: seen.filter((p) => !patterns.some((re) => re.test(p))),
        declaredButNotSeen: patterns.filter((re) => !seen.some((p) => re.test(p))).map(String),
      }).toEqual({ unexpected: [], declaredButNotSeen: [] });
    },
  };
}
