import { MongoServerError } from "mongodb";

const DUPLICATE_KEY = 11000;
// The embedded database (FerretDB 1.24, SQLite) reports a unique-index violation on `update`
// as a generic InternalError (code 1) naming the SQLite constraint, not as 11000.
const FERRETDB_UNIQUE_UPDATE = /UNIQUE constraint failed/;

/** Whether a write failed because a unique index already holds its key (MongoDB and FerretDB). */
export const isDuplicateKey = (err: unknown): boolean =>
  err instanceof MongoServerError &&
  (err.code === DUPLICATE_KEY || FERRETDB_UNIQUE_UPDATE.test(err.message));
