import { afterAll } from "vitest";
import { runFileCleanups } from "./cleanup.js";

// Runs once per test file, after its own hooks: stops its servers, dumps and drops its databases.
afterAll(runFileCleanups, 60_000);
