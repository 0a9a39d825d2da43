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
// created later get it within a few intervals (keeper.go). FerretDB never sees these indexes in
// its metadata (listIndexes does not show them) and drops them with their table.

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
)

const idPathIndexSuffix = "_pressroom_id_path"

// ensureIDIndexes adds the missing `_id` path indexes to every database file in dir, and keeps
// the exact pushdown's indexes and element tables in step (exact_index.go): one pass of a new
// keeper (keeper.go), which looks at every file.
func ensureIDIndexes(ctx context.Context, dir string, logger *slog.Logger) {
	new(keeper).pass(ctx, dir, logger)
}

// ensureIDIndexesIn adds the missing `_id` path indexes of one database file, through db.
func ensureIDIndexesIn(ctx context.Context, db *dataFile) ([]string, error) {
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
