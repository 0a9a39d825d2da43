package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// The launcher collects garbage at GOGC=200 unless the environment sets GOGC (gc_pace.go;
// server/embedded-db/README.md, "The launcher's garbage collector").
func TestGCPaceIs200UnlessGOGCIsSet(t *testing.T) {
	restore := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(restore) })

	// t.Setenv puts the environment's GOGC back after the test, whatever happens to it here.
	t.Setenv("GOGC", "50")
	paceGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("with GOGC set, paceGC changed the collector's percent to %d", got)
	}

	if err := os.Unsetenv("GOGC"); err != nil {
		t.Fatal(err)
	}
	paceGC()
	if got := debug.SetGCPercent(100); got != defaultGCPercent {
		t.Fatalf("without GOGC, paceGC left the collector's percent at %d, want %d", got, defaultGCPercent)
	}
}
