package main

// The keepers' connection to one of FerretDB's database files, and their writes through it.
//
// SQLite lets one connection write at a time. FerretDB's document writes take turns in Go first
// (the patch's per-database write lock, pressroom_write_lock.go); the keepers' statements take
// the same turns (ferretdb.WithWriteLock), one statement or one transaction per turn. A CREATE
// INDEX or an element table's back-fill over a big collection holds SQLite's write lock for
// seconds, and the keeper's next statement started within microseconds of the last, so writers
// waiting in SQLite's busy handler (which sleeps up to 100 ms between tries) waited out the whole
// build: 0 writes ended during a 13 s build of the blogs' indexes at 30,000 blogs. In turns, the
// writes waiting when one statement ends go before the next (keeper_writes_test.go).

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/FerretDB/FerretDB/ferretdb"
	_ "modernc.org/sqlite" // the SQLite driver FerretDB itself uses
)

// dataFile is one database file opened by a keeper.
type dataFile struct {
	*sql.DB
	dbName string // FerretDB's name of the database: the file's name without ".sqlite"
}

// openDataFile opens one of FerretDB's database files for the keepers: read-write but never
// created (mode=rw: a file FerretDB has just removed stays removed), waiting for FerretDB's own
// writes (busy_timeout), on one connection.
func openDataFile(file string) (*dataFile, error) {
	db, err := openOneConnection(file, "rw")
	if err != nil {
		return nil, err
	}
	return &dataFile{DB: db, dbName: strings.TrimSuffix(filepath.Base(file), ".sqlite")}, nil
}

// openOneConnection opens a SQLite file in mode "rw" or "ro" (never created), on one connection
// that waits up to 10 s for FerretDB's writers (the same busy_timeout as FerretDB's).
func openOneConnection(file, mode string) (*sql.DB, error) {
	u := &url.URL{Scheme: "file", Path: file, OmitHost: true}
	u.RawQuery = "mode=" + mode + "&_pragma=busy_timeout(10000)"
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// execInTurn runs one statement in a write turn of the database.
func (f *dataFile) execInTurn(ctx context.Context, stmt string) error {
	return ferretdb.WithWriteLock(f.dbName, func() error {
		_, err := f.ExecContext(ctx, stmt)
		return err
	})
}

// txInTurn runs statements in one transaction, in one write turn of the database; the error
// names the statement that failed by its first two words ("CREATE TABLE").
func (f *dataFile) txInTurn(ctx context.Context, stmts []string) error {
	return ferretdb.WithWriteLock(f.dbName, func() error {
		tx, err := f.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer func() { _ = tx.Rollback() }()
		for _, stmt := range stmts {
			if _, err = tx.ExecContext(ctx, stmt); err != nil {
				words := strings.Fields(stmt)
				return fmt.Errorf("%s: %w", strings.Join(words[:min(2, len(words))], " "), err)
			}
		}
		return tx.Commit()
	})
}
