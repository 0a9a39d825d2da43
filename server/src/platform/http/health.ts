import { Router } from "express";
import type { Db } from "mongodb";

/**
 * Liveness (the process answers) and readiness (the database answers a ping in time). With
 * workers (README, "Workers"), `notReady` says why this process is not ready although it
 * answers: until every worker of the server serves, `/readyz` is 503 with that message.
 */
export function healthRouter(db: Db, notReady: () => string | undefined = () => undefined): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const why = notReady();
    if (why !== undefined) {
      res.status(503).json({ message: why });
      return;
    }
    try {
      await db.command({ ping: 1 });
      res.json({ status: "ok" });
    } catch (err) {
      res.locals.log.warn({ err }, "readiness check failed");
      res.status(503).json({ message: "Database unreachable." });
    }
  });
  return router;
}
