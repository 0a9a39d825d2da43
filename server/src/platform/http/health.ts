import { Router } from "express";
import type { Db } from "mongodb";

/** Liveness (the process answers) and readiness (the database answers a ping in time). */
export function healthRouter(db: Db): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
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
