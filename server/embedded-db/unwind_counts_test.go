package main

// Counts of a field's values (README.md, "Counts of a field's values"): the pipeline of the tag
// counts, over a collection holding one document of each kind a field can hold next to plain
// ones, answers what the stock server answers, byte for byte, and is answered in SQL exactly
// when every unwound value is a string.

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/primitive"
	"go.mongodb.org/mongo-driver/mongo"
)

func TestUnwindCountsAreExactOrFallBack(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	_, _, patched, stock := startPair(ctx, t)

	oid := primitive.NewObjectIDFromTimestamp(time.Unix(1e9, 0))
	date := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	plain := []any{bson.A{"b", "a"}, bson.A{"a", "c", "a"}, "c", bson.A{}, nil, "missing"}
	odd := []struct {
		name  string
		tags  any
		inSQL bool
	}{
		{"nothing odd", "missing", true},
		{"a null field", nil, true},
		{"an empty array", bson.A{}, true},
		{"a string", "z", true},
		{"an array with a repeat and an empty string", bson.A{"", "z", ""}, true},
		{"a number", int32(1), false},
		{"an ObjectId", oid, false},
		{"a boolean", true, false},
		{"a date", date, false},
		{"an empty object", bson.D{}, false},
		{"an object", bson.D{{Key: "k", Value: "a"}}, false},
		{"an array with a number", bson.A{"a", int32(1)}, false},
		{"an array with a long", bson.A{int64(2), "a"}, false},
		{"an array with null", bson.A{nil, "a"}, false},
		{"an array with an ObjectId", bson.A{"a", oid}, false},
		{"an array with a boolean", bson.A{false}, false},
		{"an array with a date", bson.A{date, "b"}, false},
		{"an array with an object", bson.A{bson.D{{Key: "k", Value: "a"}}, "a"}, false},
		{"an array with an empty object", bson.A{bson.D{}}, false},
	}
	var pipelines []bson.A
	for _, project := range []bool{false, true} {
		p := bson.A{bson.D{{Key: "$match", Value: bson.D{{Key: "ws", Value: "w1"}}}}}
		if project {
			p = append(p, bson.D{{Key: "$project", Value: bson.D{{Key: "tags", Value: 1}}}})
		}
		p = append(p, bson.D{{Key: "$unwind", Value: "$tags"}},
			bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$tags"}, {Key: "count", Value: bson.D{{Key: "$sum", Value: 1}}}}}})
		pipelines = append(pipelines, p)
	}
	for i, c := range odd {
		var answers [2]string
		for j, client := range []*mongo.Client{stock, patched} {
			coll := client.Database("d").Collection(fmt.Sprintf("unwind_%d", i))
			index := mongo.IndexModel{Keys: bson.D{{Key: "ws", Value: 1}, {Key: "tags", Value: 1}}}
			if _, err := coll.Indexes().CreateOne(ctx, index); err != nil {
				t.Fatal(err)
			}
			var docs []any
			for k, tags := range append(append([]any{}, plain...), c.tags) {
				doc := bson.D{{Key: "_id", Value: fmt.Sprintf("d%02d", k)}, {Key: "ws", Value: "w1"}}
				if tags != "missing" {
					doc = append(doc, bson.E{Key: "tags", Value: tags})
				}
				docs = append(docs, doc)
			}
			// Another workspace's documents are never counted.
			docs = append(docs, bson.D{{Key: "_id", Value: "other"}, {Key: "ws", Value: "w2"}, {Key: "tags", Value: bson.A{"a", int32(5)}}})
			if _, err := coll.InsertMany(ctx, docs); err != nil {
				t.Fatal(err)
			}
			for k, p := range pipelines {
				name := []string{"without $project", "with $project"}[k]
				before := ferretdb.UnwindCountsAnswered()
				got, err := aggregateText(ctx, coll, p)
				answers[j] += fmt.Sprintf("%s: %v %v\n", name, got, err)
				if inSQL := ferretdb.UnwindCountsAnswered() > before; j == 1 && inSQL != c.inSQL {
					t.Errorf("%s, %s: answered in SQL %v, want %v", c.name, name, inSQL, c.inSQL)
				}
			}
		}
		if answers[0] != answers[1] {
			t.Errorf("%s:\nstock:\n%spatched:\n%s", c.name, answers[0], answers[1])
		}
	}
}
