package json_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/go-codemode/codemode"
	"github.com/go-codemode/codemode/internal/scripttest"
)

// TestCases runs testdata/json.txtar: each program must give exactly its
// expected Result (node's, or the reference's where codemode differs; the
// file's comment lists those).
func TestCases(t *testing.T) {
	cases, err := scripttest.Load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	rt, err := codemode.New(codemode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got, err := rt.Execute(context.Background(), c.Program).MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if !sameJSON(got, c.Expected) {
				t.Errorf("%s:%d\nprogram:\n%s\ngot:  %s\nwant: %s", c.File, c.Line, c.Program, got, c.Expected)
			}
		})
	}
}

func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
