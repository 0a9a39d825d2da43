import { describe, expect, it } from "vitest";
import { closeGracefully, listen, urlOf } from "../server/src/http-server.js";
import { pipeliningClient } from "./support/raw-http.js";

/**
 * The drain itself, on the smallest server: a handler that answers after 5 ms. A pipelining
 * client always has a request queued, so its connection is never idle; Node's own
 * `server.close()` only closes idle connections and would wait for the timeout.
 */
describe("graceful close", () => {
  it("a connection that is never idle is closed by the drain, with no request cut and no timeout", async () => {
    const server = await listen(
      (_req, res) => {
        setTimeout(() => res.end("ok"), 5);
      },
      0,
      "127.0.0.1",
    );
    const client = pipeliningClient(`${urlOf(server)}/`, {}, 2);
    await new Promise((r) => setTimeout(r, 200));

    const cut = await closeGracefully(server, 5_000);
    const responses = await client.done;

    expect(cut).toBe(0);
    expect(responses.length).toBeGreaterThan(1);
    expect(responses.filter((r) => r.status !== 200)).toEqual([]);
    // The last answer told the client to close; none before it did.
    expect(responses.at(-1)?.connection).toBe("close");
    expect(responses.slice(0, -1).filter((r) => r.connection === "close")).toEqual([]);
  });
});
