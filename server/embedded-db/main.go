// Command pressroom-db runs an embedded, MongoDB-compatible server (FerretDB v1
// with its SQLite backend) for development and tests.
//
// Once the server accepts connections, exactly one JSON line is printed to
// stdout: {"uri":"mongodb://127.0.0.1:PORT/"}. Logs go to stderr. With -backup-from/-backup-to
// or -verify it runs one backup or check instead and exits (backup.go).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	os.Exit(run())
}

func run() int {
	listen := flag.String("listen", "127.0.0.1:27017", "loopback `host:port` to listen on; port 0 picks a free port")
	dataDir := flag.String("data-dir", "", "`directory` for the SQLite files (required; created if missing)")
	logLevel := flag.String("log-level", "warn", "log `level` on stderr: debug, info, warn or error")
	exitOnStdinClose := flag.Bool("exit-on-stdin-close", false, "shut down when stdin is closed (parent process died)")
	idIndexEvery := flag.Duration("id-index-interval", time.Second, "how often to add the `_id` path index and the exact pushdown's indexes to new collections (see id_index.go, exact_index.go); 0 turns it off")
	exactPushdown := flag.Bool("exact-pushdown", true, "answer finds, updates, deletes and counts in SQL where that is exact (our FerretDB patch); false runs stock FerretDB's query path")
	atomicWrites := flag.Bool("atomic-writes", true, "apply each update, delete and findAndModify statement's read and write in one turn, as MongoDB does (our FerretDB patch); false runs stock FerretDB's read-then-write")
	backupFrom := flag.String("backup-from", "", "one-shot: copy this database `file` (live or not) consistently to -backup-to, then exit (backup.go)")
	backupTo := flag.String("backup-to", "", "one-shot: where -backup-from's copy goes (`file`; refused if it exists, unless -force)")
	force := flag.Bool("force", false, "with -backup-to: replace an existing file")
	verify := flag.String("verify", "", "one-shot: check that `file` is a whole FerretDB SQLite database and print its collections' counts, then exit")
	flag.Parse()

	if *backupFrom != "" || *backupTo != "" || *verify != "" {
		return runBackupMode(*backupFrom, *backupTo, *verify, *force)
	}
	paceGC()

	fail := func(code int, format string, args ...any) int {
		fmt.Fprintf(os.Stderr, "pressroom-db: "+format+"\n", args...)
		return code
	}

	host, _, err := net.SplitHostPort(*listen)
	if err != nil {
		return fail(2, "invalid -listen %q: %v", *listen, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fail(2, "-listen %q: refusing a non-loopback host; this server has no authentication", *listen)
	}
	if *dataDir == "" {
		return fail(2, "-data-dir is required")
	}
	var level slog.Level
	if err = level.UnmarshalText([]byte(*logLevel)); err != nil {
		return fail(2, "invalid -log-level %q: %v", *logLevel, err)
	}

	dir, err := filepath.Abs(*dataDir)
	if err == nil {
		err = os.MkdirAll(dir, 0o700)
	}
	if err != nil {
		return fail(1, "data directory: %v", err)
	}

	// FerretDB wants "file:/abs/dir/"; url.URL escapes odd characters for us.
	sqliteURL := &url.URL{Scheme: "file", Path: dir + "/", OmitHost: true}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	// FerretDB 1.24 opens the TCP listener inside New, so with port 0 the
	// actual port is known right away and reported by MongoDBURI.
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: sqliteURL.String(),

		ExactPushdown: *exactPushdown,
		AtomicWrites:  *atomicWrites,
	})
	if err != nil {
		return fail(1, "%v", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if *exitOnStdinClose {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}

	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.Run(ctx)
	}()
	if *idIndexEvery > 0 {
		go keepIDIndexes(ctx, dir, *idIndexEvery, logger)
	}

	uri := f.MongoDBURI()
	u, err := url.Parse(uri)
	if err != nil {
		stop()
		<-done
		return fail(1, "bad URI %q: %v", uri, err)
	}

	// Wait until the accept loop answers before announcing the URI.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		conn, dialErr := net.DialTimeout("tcp", u.Host, time.Second)
		if dialErr == nil {
			_ = conn.Close()
			break
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			stop()
			<-done
			return fail(1, "server did not become ready: %v", dialErr)
		}
	}

	line, _ := json.Marshal(map[string]string{"uri": uri})
	if _, err = fmt.Fprintf(os.Stdout, "%s\n", line); err != nil {
		stop()
		<-done
		return fail(1, "writing URI: %v", err)
	}
	_ = os.Stdout.Sync()

	<-done
	return 0
}
