package main

// Indexes for the exact pushdown of our patched FerretDB (see README.md, "The FerretDB patch").
//
// The patched SQLite backend compares and sorts each top-level field f by two SQL expressions,
// its MongoDB type rank and its value (ferretdb.ExactIndexColumns), and before a pushed-down
// query checks that no document holds a type it cannot compare exactly in any field the query
// names (ferretdb.ExactExoticExpr). FerretDB's own indexes are on other expressions
// (_ferretdb_sjson->"f"), which SQLite cannot use for these queries. So for every index FerretDB
// knows of, this adds:
//
//   - "<table>_pressroom_x_<index name>": the same keys, each as (rank, value), same directions;
//   - "<table>_pressroom_t_<field>" for each field of those indexes and _id: a partial index
//     holding only the rows whose field has such a type (normally none), so the check is a SEARCH.
//
// and drops "_pressroom_x_" indexes whose FerretDB index is gone. Indexes over dotted paths or
// unusual field names are skipped: the pushdown does not translate them either.
//
// It also drops FerretDB's own SQLite index of each non-unique index, "<table>_<index name>",
// which a database made before the patch stopped building them has (the patch records a
// non-unique index in its metadata and builds nothing: no query names its expressions, so it
// only cost writes and space); a unique one stays, it refuses duplicates.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/FerretDB/FerretDB/ferretdb"
)

const (
	exactIndexInfix = "_pressroom_x_"
	typeIndexInfix  = "_pressroom_t_"
)

// ferretIndexes is the part of FerretDB's collection settings (metadata/settings.go) we read.
type ferretIndexes struct {
	Indexes []struct {
		Name   string `json:"name"`
		Unique bool   `json:"unique"`
		Key    []struct {
			Field      string `json:"field"`
			Descending bool   `json:"descending"`
		} `json:"key"`
	} `json:"indexes"`
}

// exactIndexStatements returns the CREATE INDEX statements a collection table should have,
// by index name.
func exactIndexStatements(table string, settings ferretIndexes) map[string]string {
	want := map[string]string{}
	fields := map[string]bool{"_id": true}

	for _, index := range settings.Indexes {
		var columns []string
		for _, key := range index.Key {
			if !ferretdb.ExactPushdownField(key.Field) {
				columns = nil
				break
			}
			columns = append(columns, ferretdb.ExactIndexColumns(key.Field, key.Descending)...)
			fields[key.Field] = true
		}
		if len(columns) == 0 {
			continue
		}
		name := table + exactIndexInfix + index.Name
		want[name] = fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %q ON %q (%s)`, name, table, strings.Join(columns, ", "))
	}

	for field := range fields {
		name := table + typeIndexInfix + field
		want[name] = fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %q ON %q (%s) WHERE %s`,
			name, table, ferretdb.ExactTypeExpr(field), ferretdb.ExactExoticExpr(field))
	}

	return want
}

// ensureExactIndexesIn brings the exact pushdown's indexes of one database file in step with
// FerretDB's indexes; it returns the names of the indexes it created or dropped.
func ensureExactIndexesIn(ctx context.Context, file string) ([]string, error) {
	db, err := openDataFile(file)
	if err != nil {
		return nil, err
	}
	defer db.Close()

	rows, err := db.QueryContext(ctx, `SELECT table_name, settings FROM _ferretdb_collections`)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil, nil
		}
		return nil, err
	}
	want := map[string]string{}
	tables := map[string]bool{}
	indexed := map[string][]string{} // element table candidates (element_tables.go)
	unbuilt := map[string]string{}   // FerretDB's non-unique indexes, never built now: name → table
	for rows.Next() {
		var table, raw string
		if err = rows.Scan(&table, &raw); err != nil {
			_ = rows.Close()
			return nil, err
		}
		var settings ferretIndexes
		if err = json.Unmarshal([]byte(raw), &settings); err != nil {
			_ = rows.Close()
			return nil, fmt.Errorf("settings of %s: %w", table, err)
		}
		tables[table] = true
		indexed[table] = indexedFields(settings)
		for name, stmt := range exactIndexStatements(table, settings) {
			want[name] = stmt
		}
		for _, index := range settings.Indexes {
			if !index.Unique {
				unbuilt[table+"_"+index.Name] = table
			}
		}
	}
	if err = rows.Close(); err != nil {
		return nil, err
	}

	have := map[string]string{} // our indexes that exist: name → table
	var stale []string          // FerretDB's non-unique indexes that exist
	rows, err = db.QueryContext(ctx, `SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var name, table string
		if err = rows.Scan(&name, &table); err != nil {
			_ = rows.Close()
			return nil, err
		}
		switch {
		case strings.Contains(name, exactIndexInfix) || strings.Contains(name, typeIndexInfix):
			have[name] = table
		case unbuilt[name] == table:
			stale = append(stale, name)
		}
	}
	if err = rows.Close(); err != nil {
		return nil, err
	}

	var changed []string
	sort.Strings(stale)
	for _, name := range stale {
		if err = db.execInTurn(ctx, fmt.Sprintf(`DROP INDEX IF EXISTS %q`, name)); err != nil {
			return changed, fmt.Errorf("%s: %w", name, err)
		}
		changed = append(changed, "-"+name)
	}
	names := make([]string, 0, len(want))
	for name := range want {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, ok := have[name]; ok {
			continue
		}
		if err = db.execInTurn(ctx, want[name]); err != nil {
			return changed, fmt.Errorf("%s: %w", name, err)
		}
		changed = append(changed, name)
	}
	for name, table := range have {
		if _, ok := want[name]; ok || !tables[table] || !strings.HasPrefix(name, table+exactIndexInfix) {
			continue
		}
		if err = db.execInTurn(ctx, fmt.Sprintf(`DROP INDEX IF EXISTS %q`, name)); err != nil {
			return changed, fmt.Errorf("%s: %w", name, err)
		}
		changed = append(changed, "-"+name)
	}
	elements, err := ensureElementTables(ctx, db, indexed)
	return append(changed, elements...), err
}

// indexedFields returns the top-level fields (other than _id) of a collection's indexes that the
// pushdown can name, sorted, never nil.
func indexedFields(settings ferretIndexes) []string {
	fields := []string{}
	for _, index := range settings.Indexes {
		for _, key := range index.Key {
			if key.Field != "_id" && ferretdb.ExactPushdownField(key.Field) && !slices.Contains(fields, key.Field) {
				fields = append(fields, key.Field)
			}
		}
	}
	sort.Strings(fields)
	return fields
}
