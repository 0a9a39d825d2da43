package main

// FerretDB 1.24's SQLite backend pushes a `{_id: <string or ObjectId>}` filter down as
//
//	WHERE _ferretdb_sjson->'$._id' = ?
//
// but builds each collection's unique `_id` index on the expression _ferretdb_sjson->"_id".
// SQLite only uses an expression index for the identical expression, so every lookup by `_id`
// scans the whole table (about 60 ms for 3,200 blogs of a few KB). The same mismatch was
// reported for FerretDB's PostgreSQL backend (FerretDB issue #4646), where the advice was an
// index on the expression the queries use.
//
// idIndexKeeper adds that index, named "<table>_pressroom_id_path", to every collection table
// of every database in the data directory, at start and then every interval, so collections
// created later get it within one interval. FerretDB never sees these indexes in its metadata
// (listIndexes does not show them) and drops them with their table.

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"time"
)

const idPathIndexSuffix = "_pressroom_id_path"

// keepIDIndexes runs ensureIDIndexes over dir now and every interval until ctx is done.
func keepIDIndexes(ctx context.Context, dir string, interval time.Duration, logger *slog.Logger) {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		ensureIDIndexes(ctx, dir, logger)
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// ensureIDIndexes adds the missing `_id` path indexes to every database file in dir, and keeps
// the exact pushdown's indexes in step (exact_index.go). Errors are
// logged and skipped: a database or collection may be dropped while we look at it.
func ensureIDIndexes(ctx context.Context, dir string, logger *slog.Logger) {
	files, err := filepath.Glob(filepath.Join(dir, "*.sqlite"))
	if err != nil {
		logger.WarnContext(ctx, "listing database files", slog.Any("error", err))
		return
	}
	for _, file := range files {
		created, err := ensureIDIndexesIn(ctx, file)
		if err != nil {
			logger.DebugContext(ctx, "id path indexes", slog.String("file", file), slog.Any("error", err))
		}
		for _, name := range created {
			logger.DebugContext(ctx, "created id path index", slog.String("index", name))
		}
		changed, err := ensureExactIndexesIn(ctx, file)
		if err != nil {
			logger.DebugContext(ctx, "exact pushdown indexes", slog.String("file", file), slog.Any("error", err))
		}
		for _, name := range changed {
			logger.DebugContext(ctx, "exact pushdown index", slog.String("index", name))
		}
	}
}

func ensureIDIndexesIn(ctx context.Context, file string) ([]string, error) {
	db, err := openDataFile(file)
	if err != nil {
		return nil, err
	}
	defer db.Close()

	// Tables FerretDB registered that have no index of ours yet.
	rows, err := db.QueryContext(ctx, `
		SELECT c.table_name FROM _ferretdb_collections AS c
		WHERE NOT EXISTS (
			SELECT 1 FROM sqlite_master AS m
			WHERE m.type = 'index' AND m.name = c.table_name || ?
		)`, idPathIndexSuffix)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil, nil // a database file with no collection yet
		}
		return nil, err
	}
	var tables []string
	for rows.Next() {
		var table string
		if err = rows.Scan(&table); err != nil {
			_ = rows.Close()
			return nil, err
		}
		tables = append(tables, table)
	}
	if err = rows.Close(); err != nil {
		return nil, err
	}

	var created []string
	for _, table := range tables {
		name := table + idPathIndexSuffix
		q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %q ON %q (_ferretdb_sjson->'$._id')`, name, table)
		if err = db.execInTurn(ctx, q); err != nil {
			return created, fmt.Errorf("%s: %w", name, err)
		}
		created = append(created, name)
	}
	return created, nil
}
