package main

// The keeper's passes over the data directory: the `_id` path indexes (id_index.go), the exact
// pushdown's indexes (exact_index.go) and element tables (element_tables.go), at start and then
// every -id-index-interval.
//
// Looking at a database file costs opening it (SQLite reads the whole schema) and reading
// FerretDB's collections, SQLite's indexes and, per indexed field, whether it holds an array:
// 11 ms of CPU a second for the app's empty database with nothing to do, the launcher's only work
// when idle. Everything a pass reacts to is a commit to the file by FerretDB (a collection made,
// an index recorded, an array stored), and in WAL mode every commit appends to "<db>.sqlite-wal"
// and every checkpoint writes "<db>.sqlite". So a pass first stats both files, and skips a file
// whose two stats (identity, size, modification time) are what they were before the last pass
// that looked at it without an error. Reads change neither. The stats are taken before looking,
// so a commit during a pass (the keeper's own included) makes the next pass look again. One pass
// in fullLookEvery looks at every file anyway: a modification time is as coarse as the kernel's
// clock tick, so a WAL rewritten from its start to the same size within one tick would go unseen
// until then. We do not hold connections between passes, which SQLite's `PRAGMA data_version`
// would need: a connection left open on a database FerretDB drops keeps its "-wal" file, which a
// database made again under the same name would then read as its own.
//
// Commits that change nothing the keeper keeps are the common case: a server under any traffic
// commits several times a second (the usage counts' flushes, sessions, webhook deliveries), and a
// look at the app's database cost 20-35 ms of CPU each time, most of it SQLite parsing the schema
// of a new connection. So a look opens the file once (lookAt), and a file whose last look found it
// in step is looked at again at most once in quietEvery passes while commits keep coming, unless
// it is another file now (a database dropped and made again). Everything such a look would make
// is for speed only: until then queries are answered exactly, without it (README.md).

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"
)

// fullLookEvery is how many passes apart the keeper looks at every file, changed or not.
const fullLookEvery = 60

// quietEvery is how many passes apart, at most, the keeper looks at a changed file whose last
// look found it in step (and that is still the same file).
const quietEvery = 8

// keeper remembers what it saw of each database file between passes.
type keeper struct {
	seen   map[string]fileStamp // by file: its stamp before the last pass that looked without an error
	quiet  map[string]int       // by file: the pass whose look found it in step, if its last look did
	passes int
	// quietEvery overrides the constant of that name when positive (tests).
	quietEvery int
}

// quietPasses is how many passes apart the keeper looks at a changed file found in step.
func (k *keeper) quietPasses() int {
	if k.quietEvery > 0 {
		return k.quietEvery
	}
	return quietEvery
}

// fileStamp is what a stat shows of a database file and its WAL.
type fileStamp struct {
	db, wal os.FileInfo // wal is nil while there is none
}

// same reports whether nothing was committed to the file between the two stamps.
func (a fileStamp) same(b fileStamp) bool {
	return sameStat(a.db, b.db) && sameStat(a.wal, b.wal)
}

func sameStat(a, b os.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

func stampOf(file string) (fileStamp, error) {
	db, err := os.Stat(file)
	if err != nil {
		return fileStamp{}, err
	}
	wal, err := os.Stat(file + "-wal")
	if errors.Is(err, fs.ErrNotExist) {
		return fileStamp{db: db}, nil
	}
	if err != nil {
		return fileStamp{}, err
	}
	return fileStamp{db: db, wal: wal}, nil
}

// keepIDIndexes runs the keeper's pass over dir now and every interval until ctx is done.
func keepIDIndexes(ctx context.Context, dir string, interval time.Duration, logger *slog.Logger) {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	k := new(keeper)
	for {
		k.pass(ctx, dir, logger)
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// pass brings every database file in dir that changed since the keeper last looked at it in step
// (every file, one pass in fullLookEvery and on a new keeper's first), and returns how many it
// looked at. A changed file whose last look found it in step waits for quietPasses passes after
// that look, unless it is another file now. Errors are logged and skipped: a database or
// collection may be dropped while we look at it.
func (k *keeper) pass(ctx context.Context, dir string, logger *slog.Logger) (looked int) {
	if k.seen == nil {
		k.seen = map[string]fileStamp{}
		k.quiet = map[string]int{}
	}
	this := k.passes
	full := this%fullLookEvery == 0
	k.passes++
	files, err := filepath.Glob(filepath.Join(dir, "*.sqlite"))
	if err != nil {
		logger.WarnContext(ctx, "listing database files", slog.Any("error", err))
		return 0
	}
	present := map[string]bool{}
	for _, file := range files {
		present[file] = true
		stamp, err := stampOf(file)
		if err != nil {
			delete(k.seen, file)
			delete(k.quiet, file)
			continue // dropped since the listing
		}
		if seen, ok := k.seen[file]; ok && !full {
			if seen.same(stamp) {
				continue
			}
			// Left unseen, so that a later pass looks.
			if at, quiet := k.quiet[file]; quiet && this-at < k.quietPasses() && os.SameFile(seen.db, stamp.db) {
				continue
			}
		}
		looked++
		delete(k.seen, file)
		delete(k.quiet, file)
		did, ok := lookAt(ctx, file, logger)
		if ok {
			k.seen[file] = stamp
			if !did {
				k.quiet[file] = this
			}
		}
	}
	for file := range k.seen {
		if !present[file] {
			delete(k.seen, file)
			delete(k.quiet, file)
		}
	}
	return looked
}

// lookAt brings one database file in step through one connection, and reports whether it
// changed anything and whether it did so without an error.
func lookAt(ctx context.Context, file string, logger *slog.Logger) (did, ok bool) {
	db, err := openDataFile(file)
	if err != nil {
		logger.DebugContext(ctx, "opening", slog.String("file", file), slog.Any("error", err))
		return false, false
	}
	defer db.Close()
	created, idErr := ensureIDIndexesIn(ctx, db)
	if idErr != nil {
		logger.DebugContext(ctx, "id path indexes", slog.String("file", file), slog.Any("error", idErr))
	}
	for _, name := range created {
		logger.DebugContext(ctx, "created id path index", slog.String("index", name))
	}
	changed, exactErr := ensureExactIndexesIn(ctx, db)
	if exactErr != nil {
		logger.DebugContext(ctx, "exact pushdown indexes", slog.String("file", file), slog.Any("error", exactErr))
	}
	for _, name := range changed {
		logger.DebugContext(ctx, "exact pushdown index", slog.String("index", name))
	}
	return len(created) > 0 || len(changed) > 0, idErr == nil && exactErr == nil
}
