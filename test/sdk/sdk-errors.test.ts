import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  NotFoundError,
  PressroomError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from "../../sdk/src/index.js";

/**
 * `PressroomError.fromResponse(response, body, options)` is the one place that turns an HTTP
 * answer into an error (sdk/README.md, "Errors"): the class per status of the README's table, and
 * the properties every error carries.
 */

const answer = (status: number, headers: Record<string, string> = {}) =>
  new Response(null, { status, headers });

describe("PressroomError.fromResponse picks the class of the README's table per status", () => {
  const cases: [number, typeof PressroomError][] = [
    [400, BadRequestError],
    [401, AuthenticationError],
    [404, NotFoundError],
    [429, RateLimitError],
    [500, ServerError],
    [502, ServerError],
    [503, ServerError],
    [504, ServerError],
    [599, ServerError],
    [403, PressroomError],
    [409, PressroomError],
    [422, PressroomError],
    [304, PressroomError],
    [200, PressroomError],
  ];
  for (const [status, type] of cases) {
    it(`${status} → ${type.name}`, () => {
      const error = PressroomError.fromResponse(answer(status));
      expect(error).toBeInstanceOf(type);
      expect(error).toBeInstanceOf(PressroomError);
      expect(error).toBeInstanceOf(Error);
      expect(Object.getPrototypeOf(error)).toBe(type.prototype); // this class, not a subclass
      expect(error.name).toBe(type.name);
      expect(error.status).toBe(status);
    });
  }

  it("never builds the no-response classes: ConnectionError and TimeoutError need no status", () => {
    for (let status = 200; status < 600; status++) {
      const error = PressroomError.fromResponse({ status, headers: new Headers() });
      expect(error).not.toBeInstanceOf(ConnectionError);
      expect(error).not.toBeInstanceOf(TimeoutError);
    }
  });

  it("the class is chosen by the status, whichever class it is called on", () => {
    expect(NotFoundError.fromResponse(answer(500))).toBeInstanceOf(ServerError);
  });
});

describe("PressroomError.fromResponse carries status, requestId, attempts, retryAfterMs and a message", () => {
  it("the server's message, then the facts; requestId from x-request-id", () => {
    const error = PressroomError.fromResponse(
      answer(429, { "x-request-id": "req-9" }),
      { message: "Slow down." },
      { attempts: 3, retryAfterMs: 120_000 },
    );
    expect(error).toMatchObject({
      status: 429,
      requestId: "req-9",
      attempts: 3,
      retryAfterMs: 120_000,
      message: "Slow down. (HTTP 429, request id req-9, 3 attempts, retry after 120000 ms)",
    });
  });

  it("without options: 1 attempt, no Retry-After, and only the facts there are", () => {
    const error = PressroomError.fromResponse(answer(404), { message: "Blog not found." });
    expect(error).toMatchObject({
      status: 404,
      requestId: undefined,
      attempts: 1,
      retryAfterMs: undefined,
      message: "Blog not found. (HTTP 404)",
    });
  });

  it("a body without a string message (an HTML page, nothing) gets the default text of its status", () => {
    const text = (status: number, body?: unknown) =>
      PressroomError.fromResponse(answer(status), body).message;
    expect(text(502, "<html>Bad gateway</html>")).toBe("The Pressroom API failed. (HTTP 502)");
    expect(text(429, { message: 42 })).toBe("Too many requests. (HTTP 429)");
    expect(text(403, null)).toBe("Unexpected answer from the Pressroom API. (HTTP 403)");
    expect(text(200)).toBe("Empty response. (HTTP 200)");
  });

  it("redact applies to the whole message, the server's words included", () => {
    const error = PressroomError.fromResponse(
      answer(401, { "x-request-id": "secret-id" }),
      { message: "Key secret-key is not valid." },
      { redact: (text) => text.replaceAll("secret", "[redacted]") },
    );
    expect(error.message).toBe(
      "Key [redacted]-key is not valid. (HTTP 401, request id [redacted]-id)",
    );
  });
});
