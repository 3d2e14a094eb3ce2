package codemode_test

import (
	"encoding/json"
	"testing"

	"github.com/go-codemode/codemode"
)

func TestScan(t *testing.T) {
	rt, err := codemode.New(codemode.Options{Tools: testTools()})
	if err != nil {
		t.Fatal(err)
	}
	src := `const gh = tools.github;
const { add } = tools.math;
const issues = await gh.listIssues({});
const n = await add({ a: 1, b: 2 });
await tools.context7["resolve-library-id"]({});
await tools.math.ad({});
const name = "echo";
await tools[name]({});
const found = search({ query: "issues" });
async function later() { return gh.listIssue(); }
return tools.echo?.({})`
	res, err := rt.Scan(src)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res)
	want := `{"tools":[` +
		`{"path":"github.listIssues","expression":"tools.github.listIssues","location":{"line":3,"column":22},"known":true},` +
		`{"path":"math.add","expression":"tools.math.add","location":{"line":4,"column":17},"known":true},` +
		`{"path":"context7.resolve-library-id","expression":"tools.context7[\"resolve-library-id\"]","location":{"line":5,"column":7},"known":true},` +
		`{"path":"math.ad","expression":"tools.math.ad","location":{"line":6,"column":7},"known":false,"suggestion":"tools.math.add"},` +
		`{"path":"github.listIssue","expression":"tools.github.listIssue","location":{"line":10,"column":33},"known":false,"suggestion":"tools.github.listIssues"},` +
		`{"path":"echo","expression":"tools.echo","location":{"line":11,"column":8},"known":true}],` +
		`"search":[{"line":9,"column":15}],"dynamic":[{"line":8,"column":13}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, err := rt.Scan("let = ;"); err == nil {
		t.Error("a program that does not parse scanned")
	}
	empty, _ := rt.Scan("return 1")
	if got, _ := json.Marshal(empty); string(got) != `{"tools":[],"search":[],"dynamic":[]}` {
		t.Errorf("empty: %s", got)
	}
}
