package main

// Proof for the one-pass decoding of stored strings in the FerretDB patch (README.md, "Strings
// decoded in one pass"; pressroom_string.go): whatever the decoder answers in one pass is
// exactly what encoding/json answers for the same bytes, and every string encoding/json writes
// (how FerretDB stores strings) is answered in one pass, so the fast path is the one taken.
//
// Replay a failure with PRESSROOM_PUSHDOWN_SEED=<seed printed by the failing test>.

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/FerretDB/FerretDB/ferretdb"
)

// pieces are the parts random strings are made of: plain text, characters encoding/json
// escapes, multi-byte and astral characters, and bytes that are not UTF-8.
var pieces = []string{
	"a", "plain text ", "<p>", "&amp;", "\"", "\\", "/", "\n", "\r\n", "\t", "\b", "\f",
	"\x00", "\x01", "\x1f", "\x7f", "é", "ü", "中文", "😀", "\u2028", "\u2029", "\ufeff", "\uffff",
	"\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xc0\xaf", strings.Repeat("long ", 40),
}

// escapes are hand-written JSON string contents: the ones encoding/json decodes, the ones it
// decodes by its own rules (surrogates, paired or not), and the ones it refuses.
var escapes = []string{
	`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u0041`, `\u00e9`, `\u00E9`, `\u4e2D`,
	`\u0000`, `\u001f`, `\u2028`, `\uffff`, `\ud83d\ude00`, `\uD83D\uDE00`, `\ud83d`, `\ude00`,
	`\ud83dx`, `\ud83d\u0041`, `\'`, `\x41`, `\u12`, `\u12g4`, `\`, `"`, "\x01", "\t", "\xff",
}

func randomText(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(12) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}

	return b.String()
}

// randomJSON is a JSON string written by hand: text between quotes, with raw pieces and escapes,
// sometimes without its quotes or with something after it.
func randomJSON(r *rand.Rand) []byte {
	var b strings.Builder
	b.WriteByte('"')
	for range r.IntN(10) {
		if r.IntN(2) == 0 {
			b.WriteString(escapes[r.IntN(len(escapes))])
		} else {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
	}
	b.WriteByte('"')
	s := b.String()
	switch r.IntN(20) {
	case 0:
		s = s[1:]
	case 1:
		s += ` "x"`
	case 2:
		s = " " + s
	}

	return []byte(s)
}

func TestStoredStringsDecodeAsEncodingJSONDoes(t *testing.T) {
	seed := seedFromEnv(t)
	r := rand.New(rand.NewPCG(seed, seed))
	const cases = 200_000

	check := func(data []byte) bool {
		fast, ok := ferretdb.UnquoteStoredString(data)
		if !ok {
			return false
		}

		var want string
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("seed %d: %q decoded in one pass as %q, encoding/json refuses it: %v", seed, data, fast, err)
		}
		if fast != want {
			t.Fatalf("seed %d: %q decoded in one pass as %q, encoding/json: %q", seed, data, fast, want)
		}

		return true
	}

	var marshalled, handWritten, handFast int
	for range cases {
		// What FerretDB stores: encoding/json's own encoding. Of valid UTF-8 it is always taken.
		s := randomText(r)
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if !check(data) && utf8.ValidString(s) {
			t.Fatalf("seed %d: %q (encoding/json's encoding of %q) was not decoded in one pass", seed, data, s)
		}
		marshalled++

		handWritten++
		if check(randomJSON(r)) {
			handFast++
		}
	}

	// Both outcomes must occur among the hand-written ones, or the generator tests nothing.
	if handFast == 0 || handFast == handWritten {
		t.Fatalf("seed %d: %d of %d hand-written strings decoded in one pass", seed, handFast, handWritten)
	}

	t.Logf("seed %d: %d encodings of encoding/json, %d hand-written (%d in one pass)",
		seed, marshalled, handWritten, handFast)
}

// BenchmarkUnquoteStoredString decodes a stored blog body: encoding/json's encoding of ~4 KB of
// rendered HTML, with its quotes and newlines escaped (go test -bench UnquoteStoredString).
func BenchmarkUnquoteStoredString(b *testing.B) {
	var body strings.Builder
	for i := 0; body.Len() < 4096; i++ {
		body.WriteString(`<p>Paragraph with <a href="https://example.com/p/` + strings.Repeat("x", i%7) +
			`">a link</a>, "quotes", and text that runs on for a while.</p>` + "\n")
	}
	data, err := json.Marshal(body.String())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		if _, ok := ferretdb.UnquoteStoredString(data); !ok {
			b.Fatal("not decoded in one pass")
		}
	}
}
