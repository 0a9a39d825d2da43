import { describe, expect, it } from "vitest";
import { closeGracefully, listen, urlOf } from "../../server/src/platform/http/server.js";
import { pipeliningClient } from "../support/raw-http.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The drain itself, on the smallest server: a handler that answers after 5 ms. A pipelining
 * client always has a request queued, so its connection is never idle; Node's own
 * `server.close()` only closes idle connections and would wait for the timeout.
 */
describe("graceful close", () => {
  it("a connection that is never idle is closed by the drain, with no request cut and no timeout", async () => {
    // While `gate` is set, requests wait at it before their 5 ms answer. The drain starts once
    // both of the client's requests wait there: none is in transit and no answer has its headers
    // out, so what the drain does is what is tested, not where in an answer it happened to land.
    // (Landing between an answer's headers and its end, the drain can only end the connection
    // after that keep-alive answer: the race every HTTP/1.1 server has in closing a connection,
    // which clients meet by retrying; 3 of 25 runs of the ungated version hit it, and 4 of 20
    // beside two busy processes, where this one passed 45 of 45.)
    let gate: Promise<void> | undefined;
    let openGate = () => {};
    let waiting = 0;
    const server = await listen(
      (_req, res) => {
        const answer = () => setTimeout(() => res.end("ok"), 5);
        if (gate === undefined) {
          answer();
          return;
        }
        waiting++;
        void gate.then(answer);
      },
      0,
      "127.0.0.1",
    );
    const client = pipeliningClient(`${urlOf(server)}/`, {}, 2);
    await sleep(200);
    gate = new Promise((resolve) => {
      openGate = resolve;
    });
    while (waiting < 2) await sleep(5);

    const closing = closeGracefully(server, 5_000);
    openGate();
    const cut = await closing;
    const responses = await client.done;

    expect(cut).toBe(0);
    expect(responses.length).toBeGreaterThan(1);
    expect(responses.filter((r) => r.status !== 200)).toEqual([]);
    // The last answer told the client to close; none before it did.
    expect(responses.at(-1)?.connection).toBe("close");
    expect(responses.slice(0, -1).filter((r) => r.connection === "close")).toEqual([]);
  });
});
