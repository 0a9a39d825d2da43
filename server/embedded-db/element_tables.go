package main

// Element tables for the exact pushdown of string equality on fields that hold arrays (see
// README.md, "The FerretDB patch", and pressroom_exact_elements.go in the patch).
//
// A field gets an element table, "<table>_pressroom_e_<field>", when it is a top-level field of
// one of the collection's FerretDB indexes (other than _id) and some document holds an array in
// it: blogs' tags, not their workspaceId or status. Each element table has a delete trigger, and
// the collection one insert and one update trigger for all its element tables, whose names list
// the fields they keep ("<table>_pressroom_e_u:searchTerms,tags"). Creating an element table and
// its delete trigger, back-filling its rows and replacing the collection's insert and update
// triggers by ones that include it is one SQLite transaction, so from then on it changes with
// every write of the collection, in the write's own transaction. Until it exists (at most one
// keeper interval after the first array is stored) queries naming the field fall back to the
// stock path, which is exact too. It is kept while the field is indexed (even if no array is
// left: a field that holds no array costs the update trigger one comparison per write) and
// dropped when the field's last index is dropped, or rebuilt when its triggers are gone (the
// collection was dropped and made again); both replace the collection's insert and update
// triggers in the same transaction. So does a pass that finds them made otherwise under the same
// names (by an earlier launcher: its update trigger deleted and inserted every row of a changed
// field, where this one's touches only the rows that changed).

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/FerretDB/FerretDB/ferretdb"
)

const elementInfix = "_pressroom_e_"

// ensureElementTables brings the element tables of one database in step with its collections:
// indexed fields by collection table (every collection table is a key). It returns the names of
// the element tables it created, rebuilt or dropped ("-" first).
func ensureElementTables(ctx context.Context, db *dataFile, indexed map[string][]string) ([]string, error) {
	tables, triggers, err := readElementSchema(ctx, db, indexed)
	if err != nil {
		return nil, err
	}

	var changed []string
	owned := map[string]bool{} // element tables of collections that exist
	collections := make([]string, 0, len(indexed))
	for table := range indexed {
		collections = append(collections, table)
	}
	slices.Sort(collections)
	for _, table := range collections {
		done, err := ensureCollectionElements(ctx, db, table, indexed[table], tables, triggers, owned)
		changed = append(changed, done...)
		if err != nil {
			return changed, err
		}
	}

	// Element tables of dropped collections (their triggers went with them).
	for e := range tables {
		if owned[e] {
			continue
		}
		if err = dropElementTable(ctx, db, e); err != nil {
			return changed, fmt.Errorf("%s: %w", e, err)
		}
		changed = append(changed, "-"+e)
	}
	return changed, nil
}

// readElementSchema returns the element tables and the triggers of element tables of a database,
// each trigger with its SQL (names containing the infix; not the collections among indexed that
// merely contain it).
func readElementSchema(ctx context.Context, db *dataFile, indexed map[string][]string) (tables map[string]bool, triggers map[string]string, err error) {
	rows, err := db.QueryContext(ctx, `SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'trigger') AND instr(name, ?) > 0`, elementInfix)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	tables, triggers = map[string]bool{}, map[string]string{}
	for rows.Next() {
		var typ, name, sql string
		if err = rows.Scan(&typ, &name, &sql); err != nil {
			return nil, nil, err
		}
		if indexed[name] != nil {
			continue // a FerretDB collection whose name merely contains the infix
		}
		if typ == "table" {
			tables[name] = true
		} else {
			triggers[name] = sql
		}
	}
	return tables, triggers, rows.Err()
}

// ensureCollectionElements brings the element tables of one collection table in step with its
// indexed fields, in one transaction if anything changes: element tables made (or rebuilt) for
// indexed fields that hold an array, dropped for fields no longer indexed (or indexed, out of
// step and holding no array), and the insert and update triggers made for exactly the fields
// kept. It marks in owned the collection's element tables (of any field).
func ensureCollectionElements(ctx context.Context, db *dataFile, table string, fields []string,
	tables map[string]bool, triggers map[string]string, owned map[string]bool,
) ([]string, error) {
	writeFields := map[string]map[string]bool{}
	var writeTriggers []string
	for name := range triggers {
		if kind, fs, ok := ferretdb.ExactElementWriteTriggerFields(table, name); ok {
			writeTriggers = append(writeTriggers, name)
			if writeFields[kind] == nil {
				writeFields[kind] = map[string]bool{}
			}
			for _, f := range fs {
				writeFields[kind][f] = true
			}
		}
	}
	slices.Sort(writeTriggers)

	var keep, build, drop []string
	indexedField := map[string]bool{}
	for _, field := range fields {
		indexedField[field] = true
		e := ferretdb.ExactElementTable(table, field)
		owned[e] = true
		if tables[e] && triggers[ferretdb.ExactElementDeleteTrigger(table, field)] != "" &&
			writeFields["i"][field] && writeFields["u"][field] {
			keep = append(keep, field)
			continue
		}
		var arrays bool
		q := fmt.Sprintf(`SELECT EXISTS (SELECT 1 FROM %q WHERE %s AND %s = 'array')`,
			table, ferretdb.ExactExoticExpr(field), ferretdb.ExactTypeExpr(field))
		if err := db.QueryRowContext(ctx, q).Scan(&arrays); err != nil {
			return nil, fmt.Errorf("%s: %w", e, err)
		}
		switch {
		case arrays:
			build = append(build, field)
		case tables[e]:
			drop = append(drop, field)
		}
	}
	// Element tables of fields no longer indexed.
	prefix := table + elementInfix
	for e := range tables {
		if field, ok := strings.CutPrefix(e, prefix); ok && !indexedField[field] && !owned[e] {
			owned[e] = true
			drop = append(drop, field)
		}
	}
	slices.Sort(drop)

	want := slices.Sorted(slices.Values(append(slices.Clone(keep), build...)))
	var wantNames, create []string
	if len(want) > 0 {
		wantNames, create = ferretdb.ExactElementWriteTriggers(table, want)
	}
	// The write triggers are made again when they keep other fields, or the same ones as an
	// earlier launcher made them (another SQL under the same names).
	current := slices.Equal(writeTriggers, wantNames)
	for i, name := range wantNames {
		current = current && triggers[name] == create[i]
	}
	if len(build) == 0 && len(drop) == 0 && current {
		return nil, nil
	}

	var stmts, changed []string
	for _, name := range writeTriggers {
		stmts = append(stmts, fmt.Sprintf(`DROP TRIGGER IF EXISTS %q`, name))
	}
	for _, field := range drop {
		stmts = append(stmts, dropElementStmts(table, field)...)
		changed = append(changed, "-"+ferretdb.ExactElementTable(table, field))
	}
	for _, field := range build {
		stmts = append(stmts, dropElementStmts(table, field)...)
		stmts = append(stmts, ferretdb.ExactElementDDL(table, field)...)
		changed = append(changed, ferretdb.ExactElementTable(table, field))
	}
	stmts = append(stmts, create...)
	if err := db.txInTurn(ctx, stmts); err != nil {
		return nil, fmt.Errorf("%s: element tables %v: %w", table, changed, err)
	}
	return changed, nil
}

// dropElementStmts drop the element table of a field and its own triggers, if they exist.
func dropElementStmts(table, field string) []string {
	stmts := []string{}
	for _, tr := range ferretdb.ExactElementTriggers(table, field) {
		stmts = append(stmts, fmt.Sprintf(`DROP TRIGGER IF EXISTS %q`, tr))
	}
	return append(stmts, fmt.Sprintf(`DROP TABLE IF EXISTS %q`, ferretdb.ExactElementTable(table, field)))
}

// dropElementTable drops an element table whose collection is gone, with any triggers of its own
// left (none: they went with the collection's table; an older launcher's, to be sure).
func dropElementTable(ctx context.Context, db *dataFile, e string) error {
	stmts := []string{}
	for _, suffix := range []string{"_i", "_u", "_d"} {
		stmts = append(stmts, fmt.Sprintf(`DROP TRIGGER IF EXISTS %q`, e+suffix))
	}
	return db.txInTurn(ctx, append(stmts, fmt.Sprintf(`DROP TABLE IF EXISTS %q`, e)))
}
