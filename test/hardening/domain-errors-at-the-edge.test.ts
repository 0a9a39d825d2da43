// The domain throws errors with a code and knows nothing of HTTP (server/src/platform/domain-error.ts);
// the API's one error handler (server/src/platform/http/errors.ts) answers each code with its status and
// `{"message": …}` (openapi.yaml and admin.yaml, the `Error` schema), and a retry time with
// `Retry-After` (README, "Production": 429 and 503 with Retry-After).
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError, type DomainErrorCode } from "../../server/src/platform/domain-error.js";
import { errorHandler, STATUS_OF } from "../../server/src/platform/http/errors.js";
import { createLogger } from "../../server/src/platform/logger.js";

let server: ReturnType<ReturnType<typeof express>["listen"]>;
let url: string;

beforeAll(async () => {
  const app = express();
  const log = createLogger("silent");
  app.get("/throw/:code", (req, res) => {
    res.locals.log = log;
    const retry = req.query.retry === undefined ? undefined : Number(req.query.retry);
    throw new DomainError(req.params.code as DomainErrorCode, `refused: ${req.params.code}`, retry);
  });
  app.use(errorHandler);
  server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const EXPECTED: Record<DomainErrorCode, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  throttled: 429,
  unavailable: 503,
  gone: 410,
  stale: 412,
  not_configured: 501,
  too_large: 413,
  unsupported_type: 415,
};

describe("domain errors at the API's edge", () => {
  it("every code has its status, and the message is the body", async () => {
    expect(STATUS_OF).toEqual(EXPECTED);
    for (const [code, status] of Object.entries(EXPECTED)) {
      const res = await fetch(`${url}/throw/${code}`);
      expect([code, res.status]).toEqual([code, status]);
      expect(await res.json()).toEqual({ message: `refused: ${code}` });
      expect(res.headers.get("retry-after")).toBeNull();
    }
  });

  it("a retry time becomes Retry-After, in seconds", async () => {
    const throttled = await fetch(`${url}/throw/throttled?retry=7`);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get("retry-after")).toBe("7");
    const busy = await fetch(`${url}/throw/unavailable?retry=2`);
    expect(busy.status).toBe(503);
    expect(busy.headers.get("retry-after")).toBe("2");
    expect(await busy.json()).toEqual({ message: "refused: unavailable" });
  });
});
