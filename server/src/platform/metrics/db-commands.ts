import type { CommandFailedEvent, CommandSucceededEvent, MongoClient } from "mongodb";
import type { Metrics } from "./metrics.js";

/** Command names kept as label values; any other (and every auth command) is `other`. */
const KNOWN_COMMANDS = new Set([
  "find",
  "getMore",
  "insert",
  "update",
  "delete",
  "findAndModify",
  "aggregate",
  "count",
  "distinct",
  "createIndexes",
  "listIndexes",
  "listCollections",
  "drop",
  "dropDatabase",
  "killCursors",
  "ping",
  "hello",
  "endSessions",
]);

export const commandLabel = (name: string): string => (KNOWN_COMMANDS.has(name) ? name : "other");

/**
 * Times every database round trip from the driver's command monitoring (the client needs
 * `monitorCommands: true`: platform/db/mongo.ts turns it on when metrics are on): one histogram sample per
 * command, labelled by its name (bounded) and outcome. Returns the function that stops watching.
 */
export function observeDbCommands(client: MongoClient, metrics: Metrics): () => void {
  const succeeded = (event: CommandSucceededEvent) => {
    metrics.dbCommands.observe(
      { command: commandLabel(event.commandName), outcome: "ok" },
      event.duration / 1000,
    );
  };
  const failed = (event: CommandFailedEvent) => {
    metrics.dbCommands.observe(
      { command: commandLabel(event.commandName), outcome: "error" },
      event.duration / 1000,
    );
  };
  client.on("commandSucceeded", succeeded);
  client.on("commandFailed", failed);
  return () => {
    client.off("commandSucceeded", succeeded);
    client.off("commandFailed", failed);
  };
}
