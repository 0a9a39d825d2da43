package main

import (
	"os"
	"runtime/debug"
)

// defaultGCPercent is the launcher's GOGC when the environment sets none: the collector runs
// once the heap has grown by twice what the last collection kept alive, instead of Go's default
// of once (100).
//
// The launcher's live heap is small (a few MB between requests) and every request allocates
// freely (documents decoded into FerretDB's types, then into BSON), so at GOGC=100 it collects
// every few MB of requests. 200 cut the launcher's CPU per list page by about a fifth (measured),
// for more memory after large operations (a heap grown by an
// updateMany's batch of 1,000 documents may reach three times its live size before a collection,
// not twice). Figures: README.md, "The launcher's garbage collector". GOGC in the environment
// still decides, as for any Go program.
const defaultGCPercent = 200

// paceGC sets GOGC to defaultGCPercent unless the environment sets GOGC.
func paceGC() {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}

	debug.SetGCPercent(defaultGCPercent)
}
