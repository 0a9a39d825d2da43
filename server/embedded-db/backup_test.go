package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/mongo"
	"go.mongodb.org/mongo-driver/mongo/options"
)

// startFerretDB runs FerretDB on dir until the test ends and returns a connected client.
func startFerretDB(ctx context.Context, t *testing.T, dir string) *mongo.Client {
	t.Helper()
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: "127.0.0.1:0"},
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		Handler:   "sqlite",
		SQLiteURL: "file:" + dir + "/",
	})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = f.Run(runCtx) }()
	client, err := mongo.Connect(ctx, options.Client().ApplyURI(f.MongoDBURI()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()); stop(); <-done })
	return client
}

// The copy is one moment of the database: one writer inserts documents 0, 1, 2, … in order
// while the backup runs, so a consistent copy holds exactly 0..k-1, with k at least the count
// acknowledged before the backup started and at most the count acknowledged after it finished.
// FerretDB then opens the copy and reads the same documents (server/embedded-db/README.md,
// "Backups").
func TestBackupUnderWritesIsOneConsistentMomentThatFerretDBOpens(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	dir := t.TempDir()
	blogs := startFerretDB(ctx, t, dir).Database("app").Collection("blogs")
	body := strings.Repeat("x", 2000)
	var acked atomic.Int64
	stopWriting := make(chan struct{})
	writerDone := make(chan error, 1)
	go func() {
		for i := int64(0); ; i++ {
			select {
			case <-stopWriting:
				writerDone <- nil
				return
			default:
			}
			if _, err := blogs.InsertOne(ctx, bson.D{{"_id", fmt.Sprintf("b%06d", i)}, {"n", i}, {"body", body}}); err != nil {
				writerDone <- err
				return
			}
			acked.Store(i + 1)
		}
	}()
	for acked.Load() < 200 {
		time.Sleep(10 * time.Millisecond)
	}

	out := filepath.Join(t.TempDir(), "backup.sqlite")
	before := acked.Load()
	report, err := backupFile(ctx, filepath.Join(dir, "app.sqlite"), out, false)
	after := acked.Load()
	close(stopWriting)
	if werr := <-writerDone; werr != nil {
		t.Fatal(werr)
	}
	if err != nil {
		t.Fatal(err)
	}
	if after == before {
		t.Fatalf("no write was acknowledged during the backup (%d before and after): the test proves nothing", before)
	}
	if len(report.Collections) != 1 || report.Collections[0].Name != "blogs" {
		t.Fatalf("report collections = %+v", report.Collections)
	}
	k := report.Collections[0].Documents
	t.Logf("acknowledged before %d, in the copy %d, after %d", before, k, after)
	if k < before || k > after {
		t.Fatalf("copy holds %d documents, want between %d and %d", k, before, after)
	}

	// Opened by FerretDB, the copy holds exactly b000000 … b(k-1), each whole.
	restored := t.TempDir()
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err = os.WriteFile(filepath.Join(restored, "app.sqlite"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	cur, err := startFerretDB(ctx, t, restored).Database("app").Collection("blogs").
		Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{"_id", 1}}))
	if err != nil {
		t.Fatal(err)
	}
	var docs []struct {
		ID   string `bson:"_id"`
		N    int64  `bson:"n"`
		Body string `bson:"body"`
	}
	if err = cur.All(ctx, &docs); err != nil {
		t.Fatal(err)
	}
	if int64(len(docs)) != k {
		t.Fatalf("FerretDB reads %d documents from the copy, its report says %d", len(docs), k)
	}
	for i, d := range docs {
		if d.ID != fmt.Sprintf("b%06d", i) || d.N != int64(i) || d.Body != body {
			t.Fatalf("document %d of the copy is %s (n %d, body %d bytes): not a prefix of the writes", i, d.ID, d.N, len(d.Body))
		}
	}

	if info, err := os.Stat(out); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("backup file mode: %v, %v; want 0600 (it holds the database's secrets)", info, err)
	}

	// Never over an existing file without force; with force, replaced.
	if _, err = backupFile(ctx, filepath.Join(dir, "app.sqlite"), out, false); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("second backup to the same file: err = %v, want a refusal", err)
	}
	if _, err = backupFile(ctx, filepath.Join(dir, "app.sqlite"), out, true); err != nil {
		t.Fatal(err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".*.tmp"))
	if len(leftovers) != 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}
}

// A file that is not a whole FerretDB database fails the check (README, "Backups").
func TestVerifyRefusesGarbageTruncatedAndForeignFiles(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	blogs := startFerretDB(ctx, t, dir).Database("app").Collection("blogs")
	for i := range 300 {
		if _, err := blogs.InsertOne(ctx, bson.D{{"_id", i}, {"body", strings.Repeat("y", 1000)}}); err != nil {
			t.Fatal(err)
		}
	}
	good := filepath.Join(t.TempDir(), "good.sqlite")
	if _, err := backupFile(ctx, filepath.Join(dir, "app.sqlite"), good, false); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	garbage := filepath.Join(other, "garbage.sqlite")
	truncated := filepath.Join(other, "truncated.sqlite")
	_ = os.WriteFile(garbage, []byte(strings.Repeat("not sqlite ", 500)), 0o600)
	_ = os.WriteFile(truncated, data[:len(data)/2], 0o600)
	foreign := filepath.Join(other, "foreign.sqlite")
	db, err := openSQLite(good) // read-only: make a plain SQLite file through a copy
	if err != nil {
		t.Fatal(err)
	}
	if _, err = db.ExecContext(ctx, "VACUUM INTO ?", foreign); err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	fdb, err := openDataFile(foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err = fdb.ExecContext(ctx, "DROP TABLE "+collectionsTable); err != nil {
		t.Fatal(err)
	}
	_ = fdb.Close()

	for file, want := range map[string]string{
		garbage:   "not a readable SQLite database",
		truncated: "malformed",
		foreign:   "not a FerretDB database",
	} {
		if _, err = verifyFile(ctx, file); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", filepath.Base(file), err, want)
		}
	}
	if r, err := verifyFile(ctx, good); err != nil || r.Collections[0].Documents != 300 {
		t.Fatalf("good copy: %+v, %v", r, err)
	}
}

// The copy's temporary file is owner-only from its creation, before a byte of the database is in
// it: a reader never sees it 0644 mid-copy, and a killed backup leaves a private file (README,
// "Backups"). Nothing else is left beside the backup.
func TestBackupTempFileIsOwnerOnlyBeforeTheCopyBegins(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	blogs := startFerretDB(ctx, t, dir).Database("app").Collection("blogs")
	if _, err := blogs.InsertOne(ctx, bson.D{{"_id", "secret"}, {"hash", "x"}}); err != nil {
		t.Fatal(err)
	}
	var seen []string
	afterTempCreated = func(tmp string) {
		info, err := os.Stat(tmp)
		if err != nil {
			seen = append(seen, err.Error())
			return
		}
		seen = append(seen, fmt.Sprintf("%s %o %d", filepath.Base(tmp), info.Mode().Perm(), info.Size()))
	}
	t.Cleanup(func() { afterTempCreated = func(string) {} })
	outDir := t.TempDir()
	out := filepath.Join(outDir, "backup.sqlite")
	if _, err := backupFile(ctx, filepath.Join(dir, "app.sqlite"), out, false); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || !strings.HasPrefix(seen[0], ".backup.sqlite.") || !strings.HasSuffix(seen[0], ".tmp 600 0") {
		t.Fatalf("temporary file before the copy: %q; want one empty file of mode 600", seen)
	}
	entries, err := os.ReadDir(outDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "backup.sqlite" {
		t.Fatalf("files beside the backup: %v; want backup.sqlite only", entries)
	}
}

// A database whose last transactions are only in its -wal (a copy of a running server's files,
// or the old files a restore keeps in before-restore-<time>/) is copied with them: VACUUM INTO
// reads through the WAL. The main file alone lacks them (README, "Backups and restores").
func TestBackupOfAFileWithItsWalIncludesTheWalsTransactions(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	blogs := startFerretDB(ctx, t, dir).Database("app").Collection("blogs")
	for i := range 20 {
		if _, err := blogs.InsertOne(ctx, bson.D{{"_id", i}}); err != nil {
			t.Fatal(err)
		}
	}
	// FerretDB is idle: its files are a consistent trio; copy the main file and its WAL only.
	raw := t.TempDir()
	for _, name := range []string{"app.sqlite", "app.sqlite-wal"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err = os.WriteFile(filepath.Join(raw, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	mainOnly := filepath.Join(t.TempDir(), "app.sqlite")
	data, _ := os.ReadFile(filepath.Join(raw, "app.sqlite"))
	if err := os.WriteFile(mainOnly, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if r, err := verifyFile(ctx, mainOnly); err == nil && len(r.Collections) == 1 && r.Collections[0].Documents == 20 {
		t.Fatal("the main file alone already holds every document: the test proves nothing about the WAL")
	}
	out := filepath.Join(t.TempDir(), "backup.sqlite")
	report, err := backupFile(ctx, filepath.Join(raw, "app.sqlite"), out, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Collections) != 1 || report.Collections[0].Documents != 20 {
		t.Fatalf("copy of the file with its WAL: %+v; want blogs with 20 documents", report.Collections)
	}
}
