package main

// Element tables for the exact pushdown of string equality on fields that hold arrays (see
// README.md, "The FerretDB patch", and pressroom_exact_elements.go in the patch).
//
// A field gets an element table, "<table>_pressroom_e_<field>", when it is a top-level field of
// one of the collection's FerretDB indexes (other than _id) and some document holds an array in
// it: blogs' tags, not their workspaceId or status. Creating it, its triggers and back-filling
// its rows is one SQLite transaction, so from then on it changes with every write of the
// collection, in the write's own transaction. Until it exists (at most one keeper interval after
// the first array is stored) queries naming the field fall back to the stock path, which is exact
// too. It is kept while the field is indexed (even if no array is left: the triggers of a field
// that holds no array cost one comparison per write) and dropped when the field's last index is
// dropped, or rebuilt when its triggers are gone (the collection was dropped and made again).

import (
	"context"
	"fmt"
	"slices"

	"github.com/FerretDB/FerretDB/ferretdb"
)

const elementInfix = "_pressroom_e_"

// ensureElementTables brings the element tables of one database in step with its collections:
// indexed fields by collection table (every collection table is a key). It returns the names of
// the element tables it created, rebuilt or dropped ("-" first).
func ensureElementTables(ctx context.Context, db *dataFile, indexed map[string][]string) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT type, name FROM sqlite_master WHERE type IN ('table', 'trigger') AND instr(name, ?) > 0`, elementInfix)
	if err != nil {
		return nil, err
	}
	tables, triggers := map[string]bool{}, map[string]bool{}
	for rows.Next() {
		var typ, name string
		if err = rows.Scan(&typ, &name); err != nil {
			_ = rows.Close()
			return nil, err
		}
		if indexed[name] != nil {
			continue // a FerretDB collection whose name merely contains the infix
		}
		if typ == "table" {
			tables[name] = true
		} else {
			triggers[name] = true
		}
	}
	if err = rows.Close(); err != nil {
		return nil, err
	}

	var changed []string
	wanted := map[string]bool{}
	collections := make([]string, 0, len(indexed))
	for table := range indexed {
		collections = append(collections, table)
	}
	slices.Sort(collections)
	for _, table := range collections {
		for _, field := range indexed[table] {
			e := ferretdb.ExactElementTable(table, field)
			wanted[e] = true
			inStep := tables[e]
			for _, tr := range ferretdb.ExactElementTriggers(table, field) {
				inStep = inStep && triggers[tr]
			}
			if inStep {
				continue
			}
			var arrays bool
			q := fmt.Sprintf(`SELECT EXISTS (SELECT 1 FROM %q WHERE %s AND %s = 'array')`,
				table, ferretdb.ExactExoticExpr(field), ferretdb.ExactTypeExpr(field))
			if err = db.QueryRowContext(ctx, q).Scan(&arrays); err != nil {
				return changed, fmt.Errorf("%s: %w", e, err)
			}
			if !arrays && !tables[e] {
				continue
			}
			var ddl []string
			if arrays {
				ddl = ferretdb.ExactElementDDL(table, field)
			}
			if err = replaceElementTable(ctx, db, table, field, ddl); err != nil {
				return changed, fmt.Errorf("%s: %w", e, err)
			}
			if arrays {
				changed = append(changed, e)
			} else {
				changed = append(changed, "-"+e)
			}
		}
	}

	// Element tables of dropped collections or of fields no longer indexed.
	for e := range tables {
		if wanted[e] {
			continue
		}
		if err = dropElementTable(ctx, db, e); err != nil {
			return changed, fmt.Errorf("%s: %w", e, err)
		}
		changed = append(changed, "-"+e)
	}
	return changed, nil
}

// replaceElementTable drops the element table of a field (and its triggers) if it exists and
// runs ddl (none: only the drop), in one transaction.
func replaceElementTable(ctx context.Context, db *dataFile, table, field string, ddl []string) error {
	stmts := []string{}
	for _, tr := range ferretdb.ExactElementTriggers(table, field) {
		stmts = append(stmts, fmt.Sprintf(`DROP TRIGGER IF EXISTS %q`, tr))
	}
	stmts = append(stmts, fmt.Sprintf(`DROP TABLE IF EXISTS %q`, ferretdb.ExactElementTable(table, field)))
	return db.txInTurn(ctx, append(stmts, ddl...))
}

// dropElementTable drops an element table whose collection or index is gone, with its triggers
// if its collection table still exists.
func dropElementTable(ctx context.Context, db *dataFile, e string) error {
	stmts := []string{}
	for _, suffix := range []string{"_i", "_u", "_d"} {
		stmts = append(stmts, fmt.Sprintf(`DROP TRIGGER IF EXISTS %q`, e+suffix))
	}
	return db.txInTurn(ctx, append(stmts, fmt.Sprintf(`DROP TABLE IF EXISTS %q`, e)))
}
