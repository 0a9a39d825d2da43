package main

// One-shot modes for `pressroom db backup` and `pressroom db restore` (server/src/platform/embedded-db/backup.ts):
// a consistent copy of one live database file, and the check of a copy. Both print one JSON
// object (a report) on stdout; errors go to stderr with exit code 1.

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // the SQLite FerretDB writes with
)

// collectionsTable is FerretDB 1.24's metadata table (internal/backends/sqlite/metadata): one
// row per collection, naming its table. A SQLite file without it is not a FerretDB database.
const collectionsTable = "_ferretdb_collections"

type collectionReport struct {
	Name      string `json:"name"`
	Documents int64  `json:"documents"`
}

type fileReport struct {
	File        string             `json:"file"`
	Bytes       int64              `json:"bytes"`
	Tables      int                `json:"tables"`
	Collections []collectionReport `json:"collections"`
}

// openSQLite opens file on one connection: read-only (mode=ro; it is never created), waiting up
// to 10 s for FerretDB's writers (the same busy_timeout as FerretDB).
func openSQLite(file string) (*sql.DB, error) {
	return openOneConnection(file, "ro")
}

// verifyFile checks that file is a whole SQLite database (integrity_check) written by FerretDB
// (its collections table), and counts each collection's documents.
func verifyFile(ctx context.Context, file string) (*fileReport, error) {
	info, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	db, err := openSQLite(file)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var check string
	if err = db.QueryRowContext(ctx, "PRAGMA integrity_check(1)").Scan(&check); err != nil {
		return nil, fmt.Errorf("not a readable SQLite database: %w", err)
	}
	if check != "ok" {
		return nil, fmt.Errorf("SQLite integrity check failed: %s", check)
	}
	report := &fileReport{File: file, Bytes: info.Size(), Collections: []collectionReport{}}
	if err = db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'table'").Scan(&report.Tables); err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, fmt.Sprintf("SELECT name, table_name FROM %q ORDER BY name", collectionsTable))
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil, errors.New("not a FerretDB database (no " + collectionsTable + " table)")
		}
		return nil, err
	}
	var tables []string
	for rows.Next() {
		var c collectionReport
		var table string
		if err = rows.Scan(&c.Name, &table); err != nil {
			_ = rows.Close()
			return nil, err
		}
		report.Collections = append(report.Collections, c)
		tables = append(tables, table)
	}
	if err = rows.Close(); err != nil {
		return nil, err
	}
	for i, table := range tables {
		q := fmt.Sprintf("SELECT count(*) FROM %q", table)
		if err = db.QueryRowContext(ctx, q).Scan(&report.Collections[i].Documents); err != nil {
			return nil, fmt.Errorf("collection %s: %w", report.Collections[i].Name, err)
		}
	}
	return report, nil
}

// syncPath fsyncs a file or a directory.
func syncPath(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// afterTempCreated is called with the temporary file's name once it exists and before the copy
// begins; tests hook it.
var afterTempCreated = func(string) {}

// backupFile copies the live database file from into to. VACUUM INTO runs in one read
// transaction, so the copy is the database as of one moment while FerretDB keeps writing (WAL).
// The copy is made in a temporary file next to to (created empty with mode 0600 before the copy
// begins), verified and fsynced, then moved into place: to is never half written. An existing to
// is refused unless force.
func backupFile(ctx context.Context, from, to string, force bool) (*fileReport, error) {
	if _, err := os.Stat(from); err != nil {
		return nil, err
	}
	if _, err := os.Lstat(to); err == nil && !force {
		return nil, fmt.Errorf("%s exists; use --force to replace it", to)
	}
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix)
	tmp := filepath.Join(filepath.Dir(to), fmt.Sprintf(".%s.%d-%s.tmp", filepath.Base(to), os.Getpid(), hex.EncodeToString(suffix)))
	defer os.Remove(tmp)

	// A backup holds key hashes, sessions and sealed secrets: owner only from its first byte.
	// SQLite would make the file 0644; VACUUM INTO fills an existing empty file instead, and a
	// killed backup leaves a private one. It exists before the copy's read begins.
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	if err = f.Close(); err != nil {
		return nil, err
	}
	afterTempCreated(tmp)
	db, err := openSQLite(from)
	if err != nil {
		return nil, err
	}
	_, err = db.ExecContext(ctx, "VACUUM INTO ?", tmp)
	_ = db.Close()
	if err != nil {
		return nil, fmt.Errorf("copying %s: %w", from, err)
	}
	report, err := verifyFile(ctx, tmp)
	if err != nil {
		return nil, fmt.Errorf("the copy failed its check: %w", err)
	}
	if err = syncPath(tmp); err != nil {
		return nil, err
	}
	if force {
		err = os.Rename(tmp, to)
	} else {
		// A hard link fails if to appeared meanwhile: no overwrite without --force, even racing.
		err = os.Link(tmp, to)
	}
	if err != nil {
		return nil, err
	}
	if err = syncPath(filepath.Dir(to)); err != nil {
		return nil, err
	}
	report.File = to
	return report, nil
}

// runBackupMode runs -backup-from/-backup-to or -verify and returns the exit code.
func runBackupMode(from, to, verify string, force bool) int {
	ctx := context.Background()
	var report *fileReport
	var err error
	if verify != "" {
		report, err = verifyFile(ctx, verify)
	} else if from == "" || to == "" {
		fmt.Fprintln(os.Stderr, "pressroom-db: -backup-from and -backup-to go together")
		return 2
	} else {
		report, err = backupFile(ctx, from, to, force)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "pressroom-db: %v\n", err)
		return 1
	}
	if report.File, err = filepath.Abs(report.File); err != nil {
		fmt.Fprintf(os.Stderr, "pressroom-db: %v\n", err)
		return 1
	}
	line, _ := json.Marshal(report)
	fmt.Println(string(line))
	return 0
}
