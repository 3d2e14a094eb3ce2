// Package command makes tools out of commands: a manifest (JSON, or YAML
// when the file name ends in .yaml or .yml) lists tools, each run as a
// process that reads the call's input as JSON on standard input and
// writes its result as JSON on standard output.
//
//	{
//	  "tools": [
//	    {
//	      "path": "crm.findCustomer",
//	      "description": "Find a customer by email",
//	      "input": {"type": "object", "properties": {"email": {"type": "string"}}, "required": ["email"]},
//	      "output": {"type": "object", "properties": {"id": {"type": "number"}, "name": {"type": "string"}}},
//	      "argv": ["./find-customer.sh", "--verbose"],
//	      "env": {"CRM_URL": "http://localhost:8080"},
//	      "dir": "."
//	    }
//	  ]
//	}
//
// The fields of an entry:
//
//   - path (required): the dotted tool path, as a program writes it after
//     `tools.`.
//   - description: what the tool does, for the model.
//   - input: the JSON Schema of the argument (an object schema; a string
//     holding one is accepted too). Left out, the tool takes an object
//     with no declared properties.
//   - output: the JSON Schema of the result. Without one the program gets
//     undefined whatever the command prints (the reference's rule), and
//     LoadManifest warns about it.
//   - argv (required): the command and its arguments. A command written
//     as a relative path ("./x.sh", "bin/x") is taken relative to the
//     manifest's directory; a bare name ("jq") is looked up in PATH.
//   - env: variables added to the command's environment (which is
//     otherwise the host's).
//   - dir: the working directory, relative to the manifest's directory;
//     by default the manifest's directory itself.
//
// Two entries with the same path are allowed: the last one wins.
//
// A YAML manifest is read as the JSON it stands for, with every mapping's
// keys in the order written, so a schema's properties appear in the
// signature in the declared order (anchors, aliases and merge keys work).
//
// A call runs the command once. Exit status 0 and JSON on standard output
// (empty output counts as null) is the tool's result. A non-zero exit is
// a tool failure whose message is the command's standard error, trimmed
// (or "command ./x.sh exited with status 3" when it wrote none). Output
// that is not JSON is a tool failure that says so. When the call's
// context ends (the run timed out, was cancelled, or finished with the
// call still running) the command's whole process group is killed.
// Calls share nothing, so a program's parallel calls run in parallel.
package command

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/go-codemode/codemode/tools"
	"go.yaml.in/yaml/v3"
)

// MaxStdout is the most a command may write on standard output; a tool
// call whose command writes more fails.
const MaxStdout = 32 << 20

// maxStderr is how much of standard error a failure message keeps.
const maxStderr = 64 << 10

// WaitDelay is how long a call waits, after its command was killed or
// exited, for the command's output pipes to close (a background child may
// hold them open) before it gives up on them.
const WaitDelay = 2 * time.Second

// entryFields are the fields a manifest entry may have, in the order the
// documentation gives them.
const entryFields = "path, description, input, output, argv, env, dir"

// Manifest is a loaded manifest: its tools and what looks wrong in it
// without being an error.
type Manifest struct {
	// Tools is the tool tree definition, ready for codemode.Options.Tools
	// (keys are dotted paths, values *tools.Tool).
	Tools map[string]any
	// Warnings are messages for the manifest's author, one per problem,
	// each naming the manifest and the entry: a tool without an output
	// schema, whose results the program never sees.
	Warnings []string
}

// Load reads the manifest at path and returns the tool tree definition it
// describes, ready for codemode.Options.Tools (keys are dotted paths,
// values *tools.Tool). Errors name the manifest, the entry (by number and
// path) and the field at fault. LoadManifest also returns the warnings.
func Load(path string) (map[string]any, error) {
	m, err := LoadManifest(path)
	if err != nil {
		return nil, err
	}
	return m.Tools, nil
}

// LoadManifest is Load with the manifest's warnings.
func LoadManifest(path string) (*Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	m, err := parse(data, strings.ToLower(filepath.Ext(path)), filepath.Dir(abs))
	if err != nil {
		return nil, fmt.Errorf("manifest %s: %w", path, err)
	}
	for i, w := range m.Warnings {
		m.Warnings[i] = fmt.Sprintf("manifest %s: %s", path, w)
	}
	return m, nil
}

// parse decodes and validates a manifest; base is the directory relative
// paths are taken from.
func parse(data []byte, ext, base string) (*Manifest, error) {
	if ext == ".yaml" || ext == ".yml" {
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		if err := yamlJSON(&doc, "", &buf); err != nil {
			return nil, err
		}
		data = buf.Bytes()
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return nil, fmt.Errorf(`the manifest must be an object {"tools": [...]}`)
		}
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	for k := range top {
		if k != "tools" {
			return nil, fmt.Errorf(`unknown top-level field %q; the manifest is {"tools": [...]}`, k)
		}
	}
	rawTools, ok := top["tools"]
	if !ok {
		return nil, fmt.Errorf(`no "tools" field; the manifest is {"tools": [...]}`)
	}
	var entries []json.RawMessage
	if err := json.Unmarshal(rawTools, &entries); err != nil {
		return nil, fmt.Errorf(`"tools" must be a list of tool entries`)
	}
	def := make(map[string]any, len(entries))
	entryOf := make(map[string]int, len(entries)) // path → the entry that won
	for i, raw := range entries {
		p, tool, err := parseEntry(raw, base)
		if err != nil {
			name := fmt.Sprintf("tool %d", i+1)
			if p != "" {
				name += fmt.Sprintf(" (%s)", p)
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		def[p] = tool // the last entry with a path wins
		entryOf[p] = i
	}
	return &Manifest{Tools: def, Warnings: warnings(def, entryOf)}, nil
}

// warnings lists, in entry order, the tools without an output schema:
// as in the reference, a program gets undefined from them whatever the
// command prints, which is rarely what the author meant.
func warnings(def map[string]any, entryOf map[string]int) []string {
	paths := make([]string, 0, len(def))
	for p, t := range def {
		if len(t.(*tools.Tool).Output) == 0 {
			paths = append(paths, p)
		}
	}
	sort.Slice(paths, func(i, j int) bool { return entryOf[paths[i]] < entryOf[paths[j]] })
	var out []string
	for _, p := range paths {
		out = append(out, fmt.Sprintf(`tool %d (%s): no "output" schema, so its results are dropped (the program gets undefined); add one, e.g. "output": {} for any JSON`, entryOf[p]+1, p))
	}
	return out
}

// parseEntry validates one entry. It returns the path as soon as it is
// known, so that errors about other fields can name the entry by it.
func parseEntry(raw json.RawMessage, base string) (string, *tools.Tool, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return "", nil, fmt.Errorf("an entry must be an object with the fields %s", entryFields)
	}
	var path string
	if rp, ok := fields["path"]; !ok {
		return "", nil, fmt.Errorf(`"path" is missing; give the dotted tool path, e.g. "crm.findCustomer"`)
	} else if err := json.Unmarshal(rp, &path); err != nil {
		return "", nil, fmt.Errorf(`"path" must be a string`)
	}
	if path == "" {
		return "", nil, fmt.Errorf(`"path" is empty`)
	}
	for _, seg := range strings.Split(path, ".") {
		if seg == "" {
			return path, nil, fmt.Errorf(`"path" %q contains an empty segment`, path)
		}
	}
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !slices.Contains(strings.Split(entryFields, ", "), k) {
			return path, nil, fmt.Errorf("unknown field %q; the fields are %s", k, entryFields)
		}
	}

	tool := &tools.Tool{}
	if rd, ok := fields["description"]; ok && string(rd) != "null" {
		if err := json.Unmarshal(rd, &tool.Description); err != nil {
			return path, nil, fmt.Errorf(`"description" must be a string`)
		}
	}
	var err error
	if tool.Input, err = schema(fields, "input"); err != nil {
		return path, nil, err
	}
	if tool.Output, err = schema(fields, "output"); err != nil {
		return path, nil, err
	}

	c := &command{}
	ra, ok := fields["argv"]
	if !ok || string(ra) == "null" {
		return path, nil, fmt.Errorf(`"argv" is missing; give the command and its arguments, e.g. ["./tool.sh", "--flag"]`)
	}
	if err := json.Unmarshal(ra, &c.argv); err != nil {
		return path, nil, fmt.Errorf(`"argv" must be a list of strings, e.g. ["./tool.sh", "--flag"]`)
	}
	if len(c.argv) == 0 || c.argv[0] == "" {
		return path, nil, fmt.Errorf(`"argv" must start with the command to run`)
	}
	c.name = c.argv[0]
	if c.path, err = resolveCommand(c.argv[0], base); err != nil {
		return path, nil, fmt.Errorf(`"argv": %v`, err)
	}

	c.dir = base
	if rd, ok := fields["dir"]; ok && string(rd) != "null" {
		var dir string
		if err := json.Unmarshal(rd, &dir); err != nil || dir == "" {
			return path, nil, fmt.Errorf(`"dir" must be a directory name`)
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(base, dir)
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return path, nil, fmt.Errorf(`"dir": %s is not a directory`, dir)
		}
		c.dir = dir
	}

	if re, ok := fields["env"]; ok && string(re) != "null" {
		var env map[string]json.RawMessage
		if err := json.Unmarshal(re, &env); err != nil {
			return path, nil, fmt.Errorf(`"env" must be an object of variable names and values`)
		}
		keys := make([]string, 0, len(env))
		for k := range env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k == "" || strings.ContainsAny(k, "=\x00") {
				return path, nil, fmt.Errorf(`"env": %q is not a variable name`, k)
			}
			v, err := envValue(env[k])
			if err != nil {
				return path, nil, fmt.Errorf(`"env": %s must be a string, a number or a boolean`, k)
			}
			c.env = append(c.env, k+"="+v)
		}
	}
	tool.Func = c.call
	return path, tool, nil
}

// schema reads an optional JSON Schema field: an object, or a string
// holding one.
func schema(fields map[string]json.RawMessage, name string) (json.RawMessage, error) {
	raw, ok := fields[name]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var text string
	if json.Unmarshal(raw, &text) == nil {
		if !json.Valid([]byte(text)) {
			var v any
			err := json.Unmarshal([]byte(text), &v)
			return nil, fmt.Errorf("%q is not valid schema JSON: %v", name, err)
		}
		raw = json.RawMessage(text)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("%q must be a JSON Schema object, e.g. {\"type\": \"object\", \"properties\": {...}}", name)
	}
	if t, ok := obj["type"]; ok {
		var one string
		var many []string
		if json.Unmarshal(t, &one) != nil && json.Unmarshal(t, &many) != nil {
			return nil, fmt.Errorf("%q: \"type\" must be a string or a list of strings", name)
		}
		if name == "input" && one != "" && one != "object" {
			return nil, fmt.Errorf("%q: a tool's input is an object, so its schema's type must be \"object\", not %q", name, one)
		}
	}
	if p, ok := obj["properties"]; ok {
		var props map[string]json.RawMessage
		if json.Unmarshal(p, &props) != nil || props == nil {
			return nil, fmt.Errorf("%q: \"properties\" must be an object of property schemas", name)
		}
	}
	if r, ok := obj["required"]; ok {
		var req []string
		if json.Unmarshal(r, &req) != nil {
			return nil, fmt.Errorf("%q: \"required\" must be a list of property names", name)
		}
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("%q is not valid schema JSON: %v", name, err)
	}
	return buf.Bytes(), nil
}

// envValue formats an environment value given as a string, number or
// boolean.
func envValue(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return fmt.Sprint(b), nil
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String(), nil
	}
	return "", errors.New("not a scalar")
}

// resolveCommand finds the program a manifest names: a relative path is
// relative to the manifest's directory, a bare name is looked up in PATH.
func resolveCommand(name, base string) (string, error) {
	if !strings.ContainsRune(name, filepath.Separator) && !strings.ContainsRune(name, '/') {
		p, err := exec.LookPath(name)
		if err != nil {
			return "", fmt.Errorf("command %q is not in PATH", name)
		}
		return p, nil
	}
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	st, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("command %s does not exist", p)
	}
	if st.IsDir() || st.Mode()&0o111 == 0 {
		return "", fmt.Errorf("command %s is not an executable file", p)
	}
	return p, nil
}

// yamlJSON turns a YAML document into JSON, keeping the order of every
// mapping's keys (the declared property order of a schema is the order
// its signature lists them in): it walks the yaml.Node tree rather than
// decoding into Go maps. Non-string keys are formatted; at is the dotted
// location, for errors.
func yamlJSON(n *yaml.Node, at string, buf *bytes.Buffer) error {
	switch n.Kind {
	case 0: // an empty document
		buf.WriteString("null")
		return nil
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			buf.WriteString("null")
			return nil
		}
		return yamlJSON(n.Content[0], at, buf)
	case yaml.AliasNode:
		return yamlJSON(n.Alias, at, buf)
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, e := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := yamlJSON(e, fmt.Sprintf("%s[%d]", at, i), buf); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
		return nil
	case yaml.MappingNode:
		keys, values, err := yamlPairs(n, at)
		if err != nil {
			return err
		}
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			buf.Write(kb)
			buf.WriteByte(':')
			if err := yamlJSON(values[i], at+"."+k, buf); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
		return nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return err
	}
	if t, ok := v.(time.Time); ok {
		v = t.Format(time.RFC3339Nano)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("%s: %v", strings.TrimPrefix(at, "."), err)
	}
	buf.Write(b)
	return nil
}

// yamlPairs lists a mapping's keys in order with their values. A key
// given twice keeps its first place and its last value (as decoding into
// a map would keep the last); merge keys (<<: *base) add the merged
// mapping's keys that the mapping does not set itself.
func yamlPairs(n *yaml.Node, at string) ([]string, []*yaml.Node, error) {
	var keys []string
	var values []*yaml.Node
	pos := map[string]int{}
	explicit := map[string]bool{}
	set := func(k string, v *yaml.Node, merged bool) {
		if i, ok := pos[k]; ok {
			if !merged || !explicit[k] {
				values[i] = v
			}
		} else {
			pos[k] = len(keys)
			keys = append(keys, k)
			values = append(values, v)
		}
		if !merged {
			explicit[k] = true
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if kn.Kind == yaml.ScalarNode && kn.Tag == "!!merge" {
			if err := yamlMerge(vn, at, set); err != nil {
				return nil, nil, err
			}
			continue
		}
		k, err := yamlKey(kn, at)
		if err != nil {
			return nil, nil, err
		}
		set(k, vn, false)
	}
	return keys, values, nil
}

// yamlMerge adds the pairs of a merge key's value: a mapping, or a list
// of them (earlier ones win, as YAML's merge says).
func yamlMerge(v *yaml.Node, at string, set func(string, *yaml.Node, bool)) error {
	if v.Kind == yaml.AliasNode {
		v = v.Alias
	}
	var maps []*yaml.Node
	switch v.Kind {
	case yaml.MappingNode:
		maps = []*yaml.Node{v}
	case yaml.SequenceNode:
		for i := len(v.Content) - 1; i >= 0; i-- {
			m := v.Content[i]
			if m.Kind == yaml.AliasNode {
				m = m.Alias
			}
			maps = append(maps, m)
		}
	}
	for _, m := range maps {
		if m.Kind != yaml.MappingNode {
			return fmt.Errorf("%s: a merge key (<<) takes a mapping or a list of mappings", strings.TrimPrefix(at, "."))
		}
		keys, values, err := yamlPairs(m, at)
		if err != nil {
			return err
		}
		for i, k := range keys {
			set(k, values[i], true)
		}
	}
	return nil
}

// yamlKey formats a mapping key as a JSON field name.
func yamlKey(kn *yaml.Node, at string) (string, error) {
	if kn.Kind == yaml.AliasNode {
		kn = kn.Alias
	}
	var k any
	if kn.Kind == yaml.ScalarNode {
		if err := kn.Decode(&k); err != nil {
			return "", err
		}
	}
	switch k.(type) {
	case string, int, int64, uint64, float64, bool:
		return fmt.Sprint(k), nil
	}
	kind := "a mapping or list"
	if kn.Kind == yaml.ScalarNode {
		kind = fmt.Sprintf("type %T", k)
	}
	return "", fmt.Errorf("%s: a key of %s cannot be a JSON field name", strings.TrimPrefix(at, "."), kind)
}

// command is one manifest entry's process.
type command struct {
	name string   // argv[0] as the manifest writes it, for messages
	path string   // the resolved program
	argv []string // argv[1:] are the arguments
	env  []string // added variables, KEY=VALUE
	dir  string
}

// call runs the command once with input on standard input.
func (c *command) call(ctx context.Context, input json.RawMessage) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, c.path, c.argv[1:]...)
	cmd.Dir = c.dir
	cmd.Env = append(cmd.Environ(), c.env...)
	cmd.Stdin = bytes.NewReader(input)
	stdout := &capWriter{max: MaxStdout}
	stderr := &capWriter{max: maxStderr, mark: true}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = WaitDelay
	setProcessGroup(cmd)
	err := cmd.Run()
	if cmd.Process != nil && (ctx.Err() != nil || errors.Is(err, exec.ErrWaitDelay)) {
		// Children that outlived the command (and held its pipes) die
		// with it.
		killProcessGroup(cmd.Process.Pid)
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("command %s was stopped: %w", c.name, context.Cause(ctx))
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		if msg := strings.TrimSpace(stderr.buf.String()); msg != "" {
			return nil, errors.New(msg)
		}
		if code := exit.ExitCode(); code >= 0 {
			return nil, fmt.Errorf("command %s exited with status %d", c.name, code)
		}
		return nil, fmt.Errorf("command %s ended: %v", c.name, exit.ProcessState)
	case errors.Is(err, exec.ErrWaitDelay):
		// The command exited successfully but left a child holding its
		// output open; what it wrote before is its result.
	case err != nil:
		return nil, fmt.Errorf("command %s: %v", c.name, err)
	}
	if stdout.over {
		return nil, fmt.Errorf("command %s wrote more than %d bytes on standard output", c.name, MaxStdout)
	}
	out := bytes.TrimSpace(stdout.buf.Bytes())
	if len(out) == 0 {
		return json.RawMessage("null"), nil
	}
	if !json.Valid(out) {
		var v any
		perr := json.Unmarshal(out, &v)
		return nil, fmt.Errorf("command %s printed invalid JSON on standard output (%v): %s", c.name, perr, preview(out))
	}
	return json.RawMessage(out), nil
}

// preview quotes the start of some output for an error message.
func preview(b []byte) string {
	const n = 80
	if len(b) > n {
		return fmt.Sprintf("%q...", b[:n])
	}
	return fmt.Sprintf("%q", b)
}

// capWriter keeps at most max bytes and notes whether more came. The
// extra bytes are accepted (so the command is not blocked) and dropped.
// It has no ReadFrom, so io.Copy goes through Write.
type capWriter struct {
	buf  bytes.Buffer
	max  int
	over bool
	mark bool // when over: add " [...]" where the text was cut
}

func (w *capWriter) Write(p []byte) (int, error) {
	n := len(p)
	if room := w.max - w.buf.Len(); room < len(p) {
		if room > 0 {
			w.buf.Write(p[:room])
		}
		if !w.over && w.mark {
			w.buf.WriteString(" [...]")
		}
		w.over = true
		return n, nil
	}
	w.buf.Write(p)
	return n, nil
}
