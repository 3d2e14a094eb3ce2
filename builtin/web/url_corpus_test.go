package web_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/go-codemode/codemode"
)

// runJSON runs a program and decodes its value into out.
func runJSON(t *testing.T, code string, out any) {
	t.Helper()
	rt, err := codemode.New(codemode.Options{Limits: codemode.Limits{Timeout: 30 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	res := rt.Execute(context.Background(), code)
	b, _ := res.MarshalJSON()
	var r struct {
		OK    bool            `json:"ok"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(b, &r); err != nil || !r.OK {
		t.Fatalf("run failed: %s", b)
	}
	if err := json.Unmarshal(r.Value, out); err != nil {
		t.Fatal(err)
	}
}

// TestURLParseCorpus parses node's answers for a corpus of inputs and
// bases (testdata/url_parse.json) and compares every href.
func TestURLParseCorpus(t *testing.T) {
	b, err := os.ReadFile("testdata/url_parse.json")
	if err != nil {
		t.Fatal(err)
	}
	var corpus struct {
		Cases [][3]*string `json:"cases"`
	}
	if err := json.Unmarshal(b, &corpus); err != nil {
		t.Fatal(err)
	}
	code := `const cases = ` + string(b) + `.cases;
return cases.map(([input, base]) => { try { return new URL(input, base ?? undefined).href; } catch (e) { return e.message === "Invalid URL" ? null : e.message; } });`
	var got []*string
	runJSON(t, code, &got)
	if len(got) != len(corpus.Cases) {
		t.Fatalf("%d results for %d cases", len(got), len(corpus.Cases))
	}
	for i, c := range corpus.Cases {
		if str(got[i]) != str(c[2]) {
			t.Errorf("new URL(%q, %s): got %s, want %s", *c[0], str(c[1]), str(got[i]), str(c[2]))
		}
	}
}

// TestURLSetterCorpus sets every attribute of several URLs to many
// values and compares the resulting href with node's
// (testdata/url_setters.json).
func TestURLSetterCorpus(t *testing.T) {
	b, err := os.ReadFile("testdata/url_setters.json")
	if err != nil {
		t.Fatal(err)
	}
	var corpus struct {
		Want []string `json:"want"`
	}
	if err := json.Unmarshal(b, &corpus); err != nil {
		t.Fatal(err)
	}
	code := `const c = ` + string(b) + `;
const out = [];
for (const h of c.hrefs) for (const a of c.attrs) for (const v of c.vals) { const u = new URL(h); try { u[a] = v; out.push(u.href); } catch (e) { out.push("E:" + e.message); } }
return out;`
	var got []string
	runJSON(t, code, &got)
	if len(got) != len(corpus.Want) {
		t.Fatalf("%d results, want %d", len(got), len(corpus.Want))
	}
	for i := range got {
		if got[i] != corpus.Want[i] {
			t.Errorf("case %d: got %q, want %q", i, got[i], corpus.Want[i])
		}
	}
}

func str(s *string) string {
	if s == nil {
		return "null"
	}
	b, _ := json.Marshal(*s)
	return string(b)
}
