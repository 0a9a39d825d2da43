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

// exactIndexStatements returns the CREATE INDEX statements a collection table should have, by
// index name, as SQLite keeps them in sqlite_master (no IF NOT EXISTS). elements holds the
// collection's fields that have an element table (fields holding arrays): an index on such a
// field also carries ferretdb.ExactNotStringsExpr of it after its keys, so that a count of the
// field's values over a match on the keys before it reads the index alone (the tag counts).
func exactIndexStatements(table string, settings ferretIndexes, elements map[string]bool) map[string]string {
	want := map[string]string{}
	fields := map[string]bool{"_id": true}

	for _, index := range settings.Indexes {
		var columns, extra []string
		for _, key := range index.Key {
			if !ferretdb.ExactPushdownField(key.Field) {
				columns = nil
				break
			}
			columns = append(columns, ferretdb.ExactIndexColumns(key.Field, key.Descending)...)
			fields[key.Field] = true
			if elements[key.Field] {
				extra = append(extra, ferretdb.ExactNotStringsExpr(key.Field))
			}
		}
		if len(columns) == 0 {
			continue
		}
		name := table + exactIndexInfix + index.Name
		want[name] = fmt.Sprintf(`CREATE INDEX %q ON %q (%s)`, name, table, strings.Join(append(columns, extra...), ", "))
	}

	for field := range fields {
		name := table + typeIndexInfix + field
		want[name] = fmt.Sprintf(`CREATE INDEX %q ON %q (%s) WHERE %s`,
			name, table, ferretdb.ExactTypeExpr(field), ferretdb.ExactExoticExpr(field))
	}

	return want
}

// ensureExactIndexesIn brings the exact pushdown's indexes of one database file in step with
// FerretDB's indexes; it returns the names of the indexes it created, rebuilt ("~" first) or
// dropped ("-" first), and of the element tables it changed, through db.
func ensureExactIndexesIn(ctx context.Context, db *dataFile) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT table_name, settings FROM _ferretdb_collections`)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil, nil
		}
		return nil, err
	}
	settingsOf := map[string]ferretIndexes{}
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
		settingsOf[table] = settings
		indexed[table] = indexedFields(settings)
		for _, index := range settings.Indexes {
			if !index.Unique {
				unbuilt[table+"_"+index.Name] = table
			}
		}
	}
	if err = rows.Close(); err != nil {
		return nil, err
	}

	// The element tables first: an index on a field that has one is built with one more column.
	changed, elementsErr := ensureElementTables(ctx, db, indexed)

	have := map[string]schemaIndex{} // our indexes that exist
	var stale []string               // FerretDB's non-unique indexes that exist
	elementTables := map[string]bool{}
	rows, err = db.QueryContext(ctx, `SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('index', 'table') AND sql IS NOT NULL`)
	if err != nil {
		return changed, err
	}
	for rows.Next() {
		var typ, name, table, def string
		if err = rows.Scan(&typ, &name, &table, &def); err != nil {
			_ = rows.Close()
			return changed, err
		}
		switch {
		case typ == "table":
			elementTables[name] = strings.Contains(name, elementInfix)
		case strings.Contains(name, exactIndexInfix) || strings.Contains(name, typeIndexInfix):
			have[name] = schemaIndex{table: table, def: def}
		case unbuilt[name] == table:
			stale = append(stale, name)
		}
	}
	if err = rows.Close(); err != nil {
		return changed, err
	}

	want := map[string]string{}
	for table, settings := range settingsOf {
		elements := map[string]bool{}
		for _, field := range indexed[table] {
			elements[field] = elementTables[ferretdb.ExactElementTable(table, field)]
		}
		for name, def := range exactIndexStatements(table, settings, elements) {
			want[name] = def
		}
	}

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
		index, ok := have[name]
		label := name
		switch {
		case ok && index.def == want[name]:
			continue
		case ok: // built otherwise: by an older launcher, or before its field held arrays
			label = "~" + name
			err = db.txInTurn(ctx, []string{fmt.Sprintf(`DROP INDEX %q`, name), want[name]})
		default:
			err = db.execInTurn(ctx, strings.Replace(want[name], "CREATE INDEX ", "CREATE INDEX IF NOT EXISTS ", 1))
		}
		if err != nil {
			return changed, fmt.Errorf("%s: %w", name, err)
		}
		changed = append(changed, label)
	}
	for name, index := range have {
		if _, ok := want[name]; ok || !hasTable(settingsOf, index.table) || !strings.HasPrefix(name, index.table+exactIndexInfix) {
			continue
		}
		if err = db.execInTurn(ctx, fmt.Sprintf(`DROP INDEX IF EXISTS %q`, name)); err != nil {
			return changed, fmt.Errorf("%s: %w", name, err)
		}
		changed = append(changed, "-"+name)
	}
	return changed, elementsErr
}

// schemaIndex is one of our indexes as sqlite_master holds it.
type schemaIndex struct {
	table string
	def   string // its CREATE INDEX statement
}

func hasTable(settingsOf map[string]ferretIndexes, table string) bool {
	_, ok := settingsOf[table]
	return ok
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
