package main

// SQLite keeps a statement journal for a write inside a transaction (FerretDB runs every insert,
// update and delete in one), so that the statement alone can be undone: a copy of each page it
// changes. Past SQLITE_STMTJRNL_SPILL (64 KiB) of copies the journal moves to a temporary file,
// which is created, written, then closed and unlinked for that one statement. A blog's insert or
// update changes a page of the table and of each index and element table that holds it, so
// nearly every write of a blog spilled: under the admin API's create + release, the copies and
// those files were about a twentieth of the launcher's CPU (README.md, "Statement journals in
// memory").
//
// The launcher raises the threshold to 1 MiB for the process (-statement-journal-spill): every
// single-document write keeps its journal in memory, and a statement that changes more (a delete
// of thousands of documents) still spills, so the memory it takes stays bounded. Writes of a
// database take turns (pressroom_write_lock.go), so about one such journal exists at a time per
// database.

import (
	"fmt"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// defaultStatementJournalSpill is the launcher's threshold (bytes) beyond which SQLite moves a
// statement journal to a temporary file.
const defaultStatementJournalSpill = 1 << 20

// setStatementJournalSpill sets SQLITE_CONFIG_STMTJRNL_SPILL for the process (-1: never spill). It
// must run before the process opens its first SQLite connection: sqlite3_config is refused once
// SQLite is initialized.
func setStatementJournalSpill(bytes int) error {
	if bytes < -1 || bytes > 1<<30 {
		return fmt.Errorf("-statement-journal-spill %d: want -1 or 0 to 1 GiB", bytes)
	}

	tls := libc.NewTLS()
	defer tls.Close()

	args := libc.Xmalloc(tls, 8)
	if args == 0 {
		return fmt.Errorf("statement journal: out of memory")
	}
	defer libc.Xfree(tls, args)

	rc := sqlite3.Xsqlite3_config(tls, sqlite3.SQLITE_CONFIG_STMTJRNL_SPILL, libc.VaList(args, int32(bytes)))
	if rc != sqlite3.SQLITE_OK {
		return fmt.Errorf("statement journal: sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL) returned %d", rc)
	}

	return nil
}
