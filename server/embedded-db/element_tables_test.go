package main

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

// elementTablesOutOfStep compares every element table of a database file with what a back-fill
// from its collection gives now (the triggers must have kept it so); "" when all agree.
func elementTablesOutOfStep(ctx context.Context, t *testing.T, file string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+file+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var problems []string
	for table, fields := range elementTablesOf(ctx, t, db) {
		for _, field := range fields {
			e := ferretdb.ExactElementTable(table, field)
			ddl := ferretdb.ExactElementDDL(table, field)
			fill := ddl[len(ddl)-1]
			fill = fill[strings.Index(fill, "(v, rid) ")+len("(v, rid) "):]
			for _, q := range []string{
				fmt.Sprintf(`SELECT count(*) FROM (SELECT v, rid FROM %q EXCEPT SELECT * FROM (%s))`, e, fill),
				fmt.Sprintf(`SELECT count(*) FROM (SELECT * FROM (%s) EXCEPT SELECT v, rid FROM %q)`, fill, e),
			} {
				var n int
				if err := db.QueryRowContext(ctx, q).Scan(&n); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
				if n != 0 {
					problems = append(problems, fmt.Sprintf("%s: %d rows differ from a back-fill (%s)", e, n, q))
				}
			}
		}
	}
	return strings.Join(problems, "; ")
}

// elementTablesOf returns the fields with an element table, by collection table.
func elementTablesOf(ctx context.Context, t *testing.T, db *sql.DB) map[string][]string {
	t.Helper()
	rows, err := db.QueryContext(ctx, `SELECT c.table_name, substr(m.name, length(c.table_name) + length(?) + 1)
		FROM _ferretdb_collections AS c JOIN sqlite_master AS m ON m.type = 'table' AND substr(m.name, 1, length(c.table_name) + length(?)) = c.table_name || ?
		ORDER BY 1, 2`, elementInfix, elementInfix, elementInfix)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil
		}
		t.Fatal(err)
	}
	defer rows.Close()
	res := map[string][]string{}
	for rows.Next() {
		var table, field string
		if err := rows.Scan(&table, &field); err != nil {
			t.Fatal(err)
		}
		res[table] = append(res[table], field)
	}
	return res
}

// keptPosts starts a server with the pushdown on a directory of its own and returns the
// collection db1.posts, its database file and a keeper pass over the directory.
func keptPosts(t *testing.T) (ctx context.Context, coll *mongo.Collection, file string, keep func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	dir := t.TempDir()
	client := startFerret(ctx, t, dir, true, &sqlLog{})
	keep = func() { ensureIDIndexes(ctx, dir, slog.New(discard{})) }
	return ctx, client.Database("db1").Collection("posts"), filepath.Join(dir, "db1.sqlite"), keep
}

// The keeper gives an indexed field an element table once a document holds an array there
// (back-filled), drops it with the field's last index, and rebuilds it when its triggers are gone
// (the collection dropped and made again); queries stay exact at every step, pushed down only
// while the element table is in step.
func TestElementTablesFollowArraysAndIndexes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	log := &sqlLog{}
	client := startFerret(ctx, t, dir, true, log)
	coll := client.Database("db1").Collection("blogs")
	file := filepath.Join(dir, "db1.sqlite")
	keep := func() { ensureIDIndexes(ctx, dir, slog.New(discard{})) }
	elementFields := func() []string {
		db, err := sql.Open("sqlite", "file:"+file+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var all []string
		for _, fields := range elementTablesOf(ctx, t, db) {
			all = append(all, fields...)
		}
		slices.Sort(all)
		return all
	}
	// query runs {tags: "a"} sorted by _id and returns the _ids and whether it went through the
	// element table.
	query := func() (string, bool) {
		log.take()
		res, err := findRaw(ctx, coll, bson.D{{Key: "tags", Value: "a"}}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
		if err != nil {
			t.Fatal(err)
		}
		viaElements := false
		for _, q := range log.take() {
			viaElements = viaElements || strings.HasPrefix(q.sql, "SELECT _ferretdb_sjson") && strings.Contains(q.sql, elementInfix+"tags")
		}
		return strings.Join(ids(res), ","), viaElements
	}
	insert := func(docs ...bson.M) {
		for _, d := range docs {
			if _, err := coll.InsertOne(ctx, d); err != nil {
				t.Fatal(err)
			}
		}
	}
	mustBe := func(step, wantIDs string, wantElements bool, wantFields ...string) {
		t.Helper()
		if got := elementFields(); !slices.Equal(got, wantFields) {
			t.Fatalf("%s: element tables for %v, want %v", step, got, wantFields)
		}
		gotIDs, via := query()
		if gotIDs != wantIDs || via != wantElements {
			t.Fatalf("%s: {tags: \"a\"} gave %s (through the element table: %v), want %s (%v)", step, gotIDs, via, wantIDs, wantElements)
		}
		if msg := elementTablesOutOfStep(ctx, t, file); msg != "" {
			t.Fatalf("%s: %s", step, msg)
		}
	}
	makeIndexes := func() {
		for _, m := range []mongo.IndexModel{
			{Keys: bson.D{{Key: "ws", Value: 1}, {Key: "tags", Value: 1}}, Options: options.Index().SetName("by_tag")},
			{Keys: bson.D{{Key: "ws", Value: 1}}, Options: options.Index().SetName("by_ws")},
		} {
			if _, err := coll.Indexes().CreateOne(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
	}

	insert(bson.M{"_id": "b1", "ws": "w", "tags": "a"}, bson.M{"_id": "b2", "ws": "w", "tags": "b"})
	makeIndexes()
	keep()
	mustBe("strings only", `"b1"`, false)

	insert(bson.M{"_id": "b3", "ws": "w", "tags": bson.A{"b", "a"}})
	mustBe("an array, before the keeper ran (falls back)", `"b1","b3"`, false)
	keep()
	mustBe("an array, after the keeper ran (back-filled)", `"b1","b3"`, true, "tags")

	// (FerretDB 1.24 refuses nested arrays.)
	insert(bson.M{"_id": "b4", "ws": "w", "tags": bson.A{bson.M{"k": "a"}, 1, nil}}, bson.M{"_id": "b5", "tags": bson.A{"a", "a"}})
	if _, err := coll.UpdateOne(ctx, bson.M{"_id": "b1"}, bson.M{"$set": bson.M{"tags": bson.A{"c"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := coll.UpdateOne(ctx, bson.M{"_id": "b2"}, bson.M{"$push": bson.M{"tags": "a"}}); err == nil {
		t.Fatal("$push to a string: want an error")
	}
	if _, err := coll.UpdateOne(ctx, bson.M{"_id": "b3"}, bson.M{"$pull": bson.M{"tags": "b"}}); err != nil {
		t.Fatal(err)
	}
	mustBe("writes kept in step by the triggers", `"b3","b5"`, true, "tags")

	if _, err := coll.DeleteOne(ctx, bson.M{"_id": "b5"}); err != nil {
		t.Fatal(err)
	}
	mustBe("a delete", `"b3"`, true, "tags")

	// The element table links rows by rowid. `compact` with force runs VACUUM, which SQLite
	// documents as free to renumber the rowids of tables without an INTEGER PRIMARY KEY (as
	// FerretDB's are); the SQLite this is built with keeps them (it copies rows with their rowid),
	// which this step pins: a gap before b3 (b2 deleted), then VACUUM.
	if _, err := coll.DeleteOne(ctx, bson.M{"_id": "b2"}); err != nil {
		t.Fatal(err)
	}
	if err := client.Database("db1").RunCommand(ctx, bson.D{{Key: "compact", Value: "blogs"}, {Key: "force", Value: true}}).Err(); err != nil {
		t.Fatal(err)
	}
	mustBe("after compact (VACUUM)", `"b3"`, true, "tags")

	// Dropped and made again: the element table is stale (its triggers went with the old table).
	if err := coll.Drop(ctx); err != nil {
		t.Fatal(err)
	}
	insert(bson.M{"_id": "c1", "ws": "w", "tags": bson.A{"a"}}, bson.M{"_id": "c2", "ws": "w", "tags": "x"})
	makeIndexes()
	gotIDs, via := query()
	if gotIDs != `"c1"` || via {
		t.Fatalf("stale element table: {tags: \"a\"} gave %s (through it: %v), want \"c1\" by the stock path", gotIDs, via)
	}
	keep()
	mustBe("rebuilt", `"c1"`, true, "tags")

	// Which element tables are in step is read from sqlite_master once per schema version (the
	// query in mustBe read it), not again for every query; a schema change is seen at once.
	log.takeTriggerReads()
	for i := 0; i < 3; i++ {
		if _, err := findRaw(ctx, coll, bson.D{{Key: "tags", Value: "a"}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := log.takeTriggerReads(); n != 0 {
		t.Fatalf("3 queries at an unchanged schema read the triggers %d times, want 0", n)
	}

	if _, err := coll.Indexes().DropOne(ctx, "by_tag"); err != nil {
		t.Fatal(err)
	}
	keep()
	mustBe("index dropped", `"c1"`, false)
}

// A collection's element tables share one insert and one update trigger, named after the fields
// they keep (README.md, "Element tables": one trigger per element table parsed the document once
// per table): the keeper makes them with the element tables, moves an element table that an
// earlier launcher gave triggers of its own onto them, and replaces them when a field's element
// table is dropped; the element tables stay in step through the writes after each step.
func TestElementTablesShareOneInsertAndOneUpdateTrigger(t *testing.T) {
	ctx, coll, file, keep := keptPosts(t)
	for _, m := range []mongo.IndexModel{
		{Keys: bson.D{{Key: "ws", Value: 1}, {Key: "tags", Value: 1}}, Options: options.Index().SetName("by_tag")},
		{Keys: bson.D{{Key: "ws", Value: 1}, {Key: "terms", Value: 1}}, Options: options.Index().SetName("by_term")},
	} {
		if _, err := coll.Indexes().CreateOne(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	// write inserts a document with arrays in both fields and updates another one's.
	write := func() {
		t.Helper()
		n++
		doc := bson.M{"_id": fmt.Sprintf("p%d", n), "ws": "w", "tags": bson.A{"a", fmt.Sprint(n)}, "terms": bson.A{"x", "y"}}
		if _, err := coll.InsertOne(ctx, doc); err != nil {
			t.Fatal(err)
		}
		if _, err := coll.UpdateOne(ctx, bson.M{"_id": "p1"}, bson.M{"$set": bson.M{"tags": bson.A{"b", fmt.Sprint(n)}, "terms": bson.A{fmt.Sprint(n)}}}); err != nil {
			t.Fatal(err)
		}
	}
	db := func() *sql.DB {
		d, err := sql.Open("sqlite", "file:"+file)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	table := tablesOf(t, file)["posts"]
	// triggersAre checks the collection table's triggers (without its name) and that every
	// element table equals a back-fill.
	triggersAre := func(step string, want ...string) {
		t.Helper()
		d := db()
		defer d.Close()
		rows, err := d.QueryContext(ctx, `SELECT substr(name, length(tbl_name) + 1) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? ORDER BY 1`, table)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for rows.Next() {
			var name string
			if err = rows.Scan(&name); err != nil {
				t.Fatal(err)
			}
			got = append(got, name)
		}
		_ = rows.Close()
		if !slices.Equal(got, want) {
			t.Fatalf("%s: triggers %q, want %q", step, got, want)
		}
		if msg := elementTablesOutOfStep(ctx, t, file); msg != "" {
			t.Fatalf("%s: %s", step, msg)
		}
	}

	write()
	keep()
	triggersAre("made", "_pressroom_e_i:tags,terms", "_pressroom_e_tags_d", "_pressroom_e_terms_d", "_pressroom_e_u:tags,terms")
	write()
	triggersAre("after writes", "_pressroom_e_i:tags,terms", "_pressroom_e_tags_d", "_pressroom_e_terms_d", "_pressroom_e_u:tags,terms")

	// An earlier launcher's layout: each element table with its own insert and update trigger.
	d := db()
	names, _ := ferretdb.ExactElementWriteTriggers(table, []string{"tags", "terms"})
	stmts := []string{fmt.Sprintf(`DROP TRIGGER %q`, names[0]), fmt.Sprintf(`DROP TRIGGER %q`, names[1])}
	for _, f := range []string{"tags", "terms"} {
		own, ownDDL := ferretdb.ExactElementWriteTriggers(table, []string{f})
		e := ferretdb.ExactElementTable(table, f)
		stmts = append(stmts, strings.Replace(ownDDL[0], own[0], e+"_i", 1), strings.Replace(ownDDL[1], own[1], e+"_u", 1))
	}
	for _, s := range stmts {
		if _, err := d.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	_ = d.Close()
	write()
	triggersAre("an earlier launcher's", "_pressroom_e_tags_d", "_pressroom_e_tags_i", "_pressroom_e_tags_u",
		"_pressroom_e_terms_d", "_pressroom_e_terms_i", "_pressroom_e_terms_u")
	keep()
	triggersAre("moved onto shared ones", "_pressroom_e_i:tags,terms", "_pressroom_e_tags_d", "_pressroom_e_terms_d", "_pressroom_e_u:tags,terms")
	write()
	triggersAre("after writes", "_pressroom_e_i:tags,terms", "_pressroom_e_tags_d", "_pressroom_e_terms_d", "_pressroom_e_u:tags,terms")

	// One field's last index dropped: its element table goes, and the shared triggers keep the other.
	if _, err := coll.Indexes().DropOne(ctx, "by_term"); err != nil {
		t.Fatal(err)
	}
	keep()
	triggersAre("terms no longer indexed", "_pressroom_e_i:tags", "_pressroom_e_tags_d", "_pressroom_e_u:tags")
	write()
	triggersAre("after writes", "_pressroom_e_i:tags", "_pressroom_e_tags_d", "_pressroom_e_u:tags")
	res, err := findRaw(ctx, coll, bson.D{{Key: "tags", Value: "a"}}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(ids(res), ","); got != `"p2","p3","p4","p5"` {
		t.Fatalf(`{tags: "a"} gave %s, want "p2","p3","p4","p5"`, got)
	}

	if _, err := coll.Indexes().DropOne(ctx, "by_tag"); err != nil {
		t.Fatal(err)
	}
	keep()
	triggersAre("no field indexed")
	write()
}

// An update writes only the element rows it changes (README.md, "Arrays: string equality through
// element tables"): one string of 200 replaced is one row deleted and one inserted, where the
// update trigger of an earlier launcher deleted and inserted all 200; and the keeper replaces that
// earlier trigger, under the same name, at its next pass, and then leaves the schema alone.
func TestAnUpdateWritesOnlyTheElementRowsItChanges(t *testing.T) {
	ctx, coll, file, keep := keptPosts(t)
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "terms", Value: 1}}}); err != nil {
		t.Fatal(err)
	}
	terms := bson.A{}
	for i := range 200 {
		terms = append(terms, fmt.Sprintf("t%03d", i))
	}
	if _, err := coll.InsertOne(ctx, bson.M{"_id": "p1", "terms": terms}); err != nil {
		t.Fatal(err)
	}
	keep()
	table := tablesOf(t, file)["posts"]
	d, err := sql.Open("sqlite", "file:"+file)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	conn, err := d.Conn(ctx) // total_changes() counts one connection's rows, its triggers' included
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	scan := func(q string) (v int64) {
		t.Helper()
		if err := conn.QueryRowContext(ctx, q).Scan(&v); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return v
	}
	exec := func(q string) {
		t.Helper()
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	n := 0
	// rowsWritten replaces one string of the array in SQL, as FerretDB's update rewrites the
	// document, and returns the rows that wrote: the document's and its element rows.
	rowsWritten := func(step string) int64 {
		t.Helper()
		n++
		before := scan(`SELECT total_changes()`)
		exec(fmt.Sprintf(`UPDATE %q SET _ferretdb_sjson = json_set(_ferretdb_sjson, '$.terms[%d]', 'new%d')`, table, n, n))
		written := scan(`SELECT total_changes()`) - before
		if msg := elementTablesOutOfStep(ctx, t, file); msg != "" {
			t.Fatalf("%s: %s", step, msg)
		}
		return written
	}
	if got := rowsWritten("this launcher's trigger"); got != 3 {
		t.Fatalf("one string of 200 replaced wrote %d rows, want 3 (the document, one element row deleted, one inserted)", got)
	}

	names, ddl := ferretdb.ExactElementWriteTriggers(table, []string{"terms"})
	cut, end := strings.Index(ddl[1], " AND (v, rid) NOT IN ("), strings.Index(ddl[1], "); INSERT OR IGNORE")
	if cut < 0 || end < cut {
		t.Fatalf("the update trigger is not as this test knows it: %s", ddl[1])
	}
	exec(fmt.Sprintf(`DROP TRIGGER %q`, names[1]))
	exec(ddl[1][:cut] + ddl[1][end+1:]) // the update trigger as an earlier launcher made it
	if got := rowsWritten("an earlier launcher's trigger"); got != 401 {
		t.Fatalf("with an earlier launcher's trigger, one string of 200 replaced wrote %d rows, want 401", got)
	}

	keep()
	if got := scan(fmt.Sprintf(`SELECT count(*) FROM sqlite_master WHERE name = '%s' AND sql = '%s'`,
		names[1], strings.ReplaceAll(ddl[1], "'", "''"))); got != 1 {
		t.Fatal("the keeper's pass left an earlier launcher's update trigger in place")
	}
	if got := rowsWritten("the trigger the keeper made again"); got != 3 {
		t.Fatalf("after the keeper's pass, one string of 200 replaced wrote %d rows, want 3", got)
	}
	version := scan(`SELECT schema_version FROM pragma_schema_version`)
	keep()
	if got := scan(`SELECT schema_version FROM pragma_schema_version`); got != version {
		t.Fatal("the keeper changed the schema again at a pass that found the triggers current")
	}

	// Through FerretDB: a new array with two strings changed and one moved, then the same again.
	moved := append(bson.A{"x", "y"}, terms[2:]...)
	moved[5], moved[6] = moved[6], moved[5]
	for range 2 {
		if _, err := coll.UpdateOne(ctx, bson.M{"_id": "p1"}, bson.M{"$set": bson.M{"terms": moved}}); err != nil {
			t.Fatal(err)
		}
		if msg := elementTablesOutOfStep(ctx, t, file); msg != "" {
			t.Fatal(msg)
		}
	}
}
