package main

// Proof for the one-pass split of stored documents in the FerretDB patch (README.md, "Stored
// documents split in one pass"; pressroom_split.go): a stored document, its embedded documents
// and its arrays decode to exactly what encoding/json's path decodes, or fail with exactly its
// error, for what FerretDB writes and for damaged copies of it; and everything FerretDB writes
// (containers of at most 64 members) is split in one pass, so the fast path is the one taken.
//
// Replay a failure with PRESSROOM_PUSHDOWN_SEED=<seed printed by the failing test>.

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/primitive"
)

// storedKeys are field names: plain, with spaces, dots and dollars inside, and beyond ASCII.
var storedKeys = []string{
	"title", "bodyMarkdown", "tags", "a", "b", "n", "x y", "a.b", "v$", "é", "中文", "😀", "_k",
	"releasedAt", "revision", "feedPending", "meta", "list", "z", "q",
}

func randomStoredValue(r *rand.Rand, depth int) any {
	kinds := 14
	if depth >= 3 {
		kinds = 12 // no more containers
	}
	switch r.IntN(kinds) {
	case 0, 1:
		return strings.ToValidUTF8(randomText(r), "?")
	case 2:
		return int32(r.Int32() - math.MaxInt32/2)
	case 3:
		return r.Int64() - math.MaxInt64/2
	case 4:
		// NaN and infinities: sjson cannot store them (FerretDB refuses them on write).
		return []float64{0, 1.5, -2.25e-300, 1e308, 12345.678, math.Copysign(0, -1)}[r.IntN(6)]
	case 5:
		return r.IntN(2) == 0
	case 6:
		return nil
	case 7:
		return primitive.NewDateTimeFromTime(time.UnixMilli(r.Int64N(4e12) - 1e12))
	case 8:
		return primitive.NewObjectID()
	case 9:
		data := make([]byte, r.IntN(20))
		for i := range data {
			data[i] = byte(r.IntN(256))
		}
		return primitive.Binary{Subtype: []byte{0, 4, 128}[r.IntN(3)], Data: data}
	case 10:
		pattern := strings.ReplaceAll(strings.ToValidUTF8(randomText(r), "?"), "\x00", "")
		return primitive.Regex{Pattern: pattern, Options: []string{"", "i", "ms"}[r.IntN(3)]}
	case 11:
		return primitive.Timestamp{T: r.Uint32(), I: r.Uint32()}
	case 12:
		return randomStoredDoc(r, depth+1, r.IntN(6))
	default:
		arr := bson.A{}
		for range r.IntN(6) {
			arr = append(arr, randomStoredValue(r, depth+1))
		}
		return arr
	}
}

// randomStoredDoc is a document of n distinct fields (n may exceed the split's 64).
func randomStoredDoc(r *rand.Rand, depth, n int) bson.D {
	doc := bson.D{}
	seen := map[string]bool{}
	for i := 0; len(doc) < n; i++ {
		key := storedKeys[r.IntN(len(storedKeys))]
		if seen[key] || i > 4*len(storedKeys) {
			key = "k" + string(rune('a'+len(doc)%26)) + strings.Repeat("_", len(doc)/26)
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		doc = append(doc, bson.E{Key: key, Value: randomStoredValue(r, depth)})
	}
	return doc
}

// damage returns data with one change: cut short, a byte inserted, removed or replaced, or a
// member repeated.
func damage(r *rand.Rand, data []byte) []byte {
	out := bytes.Clone(data)
	at := r.IntN(len(out))
	inserts := []byte(" \n,:\"\\{}[]x1-")
	switch r.IntN(6) {
	case 0:
		return out[:at]
	case 1:
		return append(out[:at:at], append([]byte{inserts[r.IntN(len(inserts))]}, out[at:]...)...)
	case 2:
		return append(out[:at:at], out[at+1:]...)
	case 3:
		out[at] = inserts[r.IntN(len(inserts))]
		return out
	case 4:
		// A whitespace between two tokens: encoding/json takes it, the split hands it over.
		i := bytes.IndexAny(out[at:], ",:")
		if i < 0 {
			return out
		}
		return append(out[:at+i+1:at+i+1], append([]byte(" "), out[at+i+1:]...)...)
	default:
		// The last member written twice.
		i := bytes.LastIndexByte(out, ',')
		if i < 0 {
			return out
		}
		return append(append(bytes.Clone(out[:len(out)-1]), out[i:len(out)-1]...), '}')
	}
}

func TestStoredDocumentsSplitInOnePassDecodeAsEncodingJSONDoes(t *testing.T) {
	seed := seedFromEnv(t)
	r := rand.New(rand.NewPCG(seed, seed))
	const documents = 3000

	same := func(what string, data []byte) bool {
		t.Helper()
		fast, fastErr := ferretdb.DecodeStoredDocument(data, false)
		stock, stockErr := ferretdb.DecodeStoredDocument(data, true)
		switch {
		case fastErr == nil && stockErr == nil:
			if !bytes.Equal(fast, stock) {
				t.Fatalf("seed %d: %s %q decodes to\n%s\nencoding/json's path:\n%s", seed, what, data, fast, stock)
			}
			return true
		case fastErr != nil && stockErr != nil:
			if fastErr.Error() != stockErr.Error() {
				t.Fatalf("seed %d: %s %q fails with %q, encoding/json's path with %q", seed, what, data, fastErr, stockErr)
			}
			return false
		default:
			t.Fatalf("seed %d: %s %q: error %v, encoding/json's path: error %v", seed, what, data, fastErr, stockErr)
			return false
		}
	}

	// Hand-written edges: a key twice in the schema and in the document (encoding/json's map
	// keeps one, so the counts differ), an escaped key, "$s" as a field, whitespace where
	// encoding/json takes it and where it does not, nested containers, empty ones.
	for _, data := range []string{
		`{"$s":{"p":{"a":{"t":"int"}},"$k":["a","a"]},"a":1,"a":2}`,
		`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":1,"a":2}`,
		`{"$s":{"p":{"a\"b":{"t":"int"}},"$k":["a\"b"]},"a\"b":1}`,
		`{"$s":{"p":{"a\u0062":{"t":"int"}},"$k":["ab"]},"a\u0062":1}`,
		`{"$s":{"p":{"$s":{"t":"int"}},"$k":["$s"]},"$s":1}`,
		`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a": 1}`,
		` {"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":1}`,
		`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":1} `,
		`{"$s":{"p":{"a":{"t":"object","$s":{"p":{"b":{"t":"string"}},"$k":["b"]}}},"$k":["a"]},"a":{"b":"x\"}"}}`,
		`{"$s":{"p":{"a":{"t":"object","$s":{"p":{"b":{"t":"int"}},"$k":["b","b"]}}},"$k":["a"]},"a":{"b":1,"b":2}}`,
		`{"$s":{"p":{"a":{"t":"array","i":[{"t":"int"},{"t":"string"}]}},"$k":["a"]},"a":[1,"]"]}`,
		`{"$s":{"p":{"a":{"t":"array","i":[{"t":"int"}]}},"$k":["a"]},"a":[1,]}`,
		`{"$s":{"p":{"a":{"t":"array","i":[]},"b":{"t":"object","$s":{}}},"$k":["a","b"]},"a":[],"b":{}}`,
		`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":null}`,
		`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":1]`,
		`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":{"x":1]}`,
	} {
		same("hand-written", []byte(data))
	}

	var wide, damaged, damagedOK, handedOver int
	for i := range documents {
		n := 1 + r.IntN(30)
		if i%50 == 0 {
			n = 65 + r.IntN(10) // beyond the split's 64: encoding/json's path
			wide++
		}
		raw, err := bson.Marshal(randomStoredDoc(r, 0, n))
		if err != nil {
			t.Fatal(err)
		}
		stored, err := ferretdb.StoredDocumentOf(raw)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}

		before := ferretdb.StoredSplitFallbacks()
		back, err := ferretdb.DecodeStoredDocument(stored, false)
		if err != nil || !bytes.Equal(back, stored) {
			t.Fatalf("seed %d: %q read back as %q (%v)", seed, stored, back, err)
		}
		if fell := ferretdb.StoredSplitFallbacks() - before; (fell > 0) != (n > 64) {
			t.Fatalf("seed %d: %d of %q's containers (%d fields) handed to encoding/json", seed, fell, stored, n)
		}
		same("stored", stored)

		for range 10 {
			data := damage(r, stored)
			if bytes.Equal(data, stored) {
				continue
			}
			damaged++
			before := ferretdb.StoredSplitFallbacks()
			if same("damaged", data) {
				damagedOK++
			}
			if ferretdb.StoredSplitFallbacks() > before {
				handedOver++
			}
		}
	}

	// Damaged copies must both decode and fail, or the comparison tests nothing.
	if damagedOK == 0 || damagedOK == damaged || handedOver == 0 {
		t.Fatalf("seed %d: %d of %d damaged copies decoded, %d handed to encoding/json", seed, damagedOK, damaged, handedOver)
	}

	t.Logf("seed %d: %d documents (%d wider than 64 fields), %d damaged copies (%d decoded, %d handed to encoding/json)",
		seed, documents, wide, damaged, damagedOK, handedOver)
}

// A find with a pushed-down projection decodes only the fields it reads (README.md, "Projections
// read only their fields"; sjson.UnmarshalStoredFields): for every document FerretDB writes, and
// any set of names, the fields it returns are exactly the whole document's decoded through
// encoding/json with the others dropped. A damaged copy fails with exactly that path's error, or
// decodes to the same fields, or (only when the damage lies in a value it skips) decodes where
// that path fails.
func TestStoredFieldsDecodeAsTheWholeDocumentDoes(t *testing.T) {
	seed := seedFromEnv(t)
	r := rand.New(rand.NewPCG(seed, seed^0xf1e1d5))
	const documents = 2000

	names := func(doc bson.D) []string {
		var out []string
		for _, e := range doc {
			if r.IntN(3) == 0 {
				out = append(out, e.Key)
			}
		}
		for _, extra := range []string{"nope", "$s", "_id"} {
			if r.IntN(4) == 0 {
				out = append(out, extra)
			}
		}
		r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		return out
	}

	var wide, partial, damaged, damagedSame, skippedDamage int
	for i := range documents {
		n := 1 + r.IntN(30)
		if i%40 == 0 {
			n = 65 + r.IntN(10) // beyond the split's 64: decoded whole
			wide++
		}
		doc := randomStoredDoc(r, 0, n)
		raw, err := bson.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		stored, err := ferretdb.StoredDocumentOf(raw)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}

		wanted := names(doc)
		before := ferretdb.StoredFieldReads()
		fast, fastErr := ferretdb.DecodeStoredFields(stored, wanted, false)
		stock, stockErr := ferretdb.DecodeStoredFields(stored, wanted, true)
		if fastErr != nil || stockErr != nil || !bytes.Equal(fast, stock) {
			t.Fatalf("seed %d: fields %q of %q:\n%s (%v)\nwhole, through encoding/json:\n%s (%v)",
				seed, wanted, stored, fast, fastErr, stock, stockErr)
		}
		if read := ferretdb.StoredFieldReads() - before; (read == 1) != (n <= 64) {
			t.Fatalf("seed %d: %q (%d fields) read in part %d times", seed, stored, n, read)
		}
		if n <= 64 {
			partial++
		}

		for range 5 {
			data := damage(r, stored)
			if bytes.Equal(data, stored) {
				continue
			}
			damaged++
			fast, fastErr := ferretdb.DecodeStoredFields(data, wanted, false)
			stock, stockErr := ferretdb.DecodeStoredFields(data, wanted, true)
			switch {
			case fastErr == nil && stockErr == nil:
				if !bytes.Equal(fast, stock) {
					t.Fatalf("seed %d: fields %q of damaged %q:\n%s\nwhole, through encoding/json:\n%s", seed, wanted, data, fast, stock)
				}
				damagedSame++
			case fastErr != nil:
				if fmt.Sprint(fastErr) != fmt.Sprint(stockErr) {
					t.Fatalf("seed %d: fields %q of damaged %q: error %v, whole through encoding/json: %v", seed, wanted, data, fastErr, stockErr)
				}
				damagedSame++
			default:
				skippedDamage++
			}
		}
	}

	if partial == 0 || wide == 0 || damagedSame == 0 {
		t.Fatalf("seed %d: %d read in part, %d wide, %d damaged alike", seed, partial, wide, damagedSame)
	}
	t.Logf("seed %d: %d documents (%d read in part, %d wider than 64 fields), %d damaged copies (%d as the whole path, %d decoded past a skipped value's damage)",
		seed, documents, partial, wide, damaged, damagedSame, skippedDamage)
}
