import { MongoServerError, type WriteError } from "mongodb";

const DUPLICATE_KEY = 11000;
// The embedded database (FerretDB 1.24, SQLite) reports a unique-index violation on `update`
// (and in some bulk writes' errors) as a generic error naming the SQLite constraint, or with
// MongoDB's words but not its code, rather than as 11000.
const FERRETDB_UNIQUE = /UNIQUE constraint failed|duplicate key/;

const isDuplicate = (code: unknown, message: string): boolean =>
  code === DUPLICATE_KEY || FERRETDB_UNIQUE.test(message);

/** Whether a write failed because a unique index already holds its key (MongoDB and FerretDB). */
export const isDuplicateKey = (err: unknown): boolean =>
  err instanceof MongoServerError && isDuplicate(err.code, err.message);

/** Whether one refused write of a bulk write was a duplicate key (MongoDB and FerretDB). */
export const isDuplicateWriteError = (e: WriteError): boolean =>
  isDuplicate(e.code, e.errmsg ?? "");
