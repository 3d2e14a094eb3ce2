package codemode

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/go-codemode/codemode/ast"
	"github.com/go-codemode/codemode/protocol"
)

// Module maps (the executor seed's ModuleMap): a program imports the
// host's modules by name (`import { slugify } from "helpers"`, `import
// cfg from "config.json"`). The front end links them statically
// (ast.Link): each module the program reaches runs once, before it, in
// the order ES evaluates them. A run with modules keeps them with its
// source, so a saved state resumes without them being given again.

// WithModules adds modules for this execution over Options.Modules (a
// name given in both is this one's). A module is an ES module
// (protocol.JSModule), CommonJS (CJSModule), a JSON value (JSONModule,
// its default export) or a text (TextModule); modules may import each
// other. A cycle, an unknown name or a syntax error in a module is a
// ParseError naming the module.
func WithModules(m protocol.ModuleMap) ExecOption {
	return func(c *execConfig) {
		if c.modules == nil {
			c.modules = protocol.ModuleMap{}
		}
		for name, src := range m {
			c.modules[name] = src
		}
	}
}

// runModules is the module map of a run: the Runtime's with the run's
// over it; nil when there are none.
func (rt *Runtime) runModules(cfg *execConfig) protocol.ModuleMap {
	if len(rt.opts.Modules) == 0 && len(cfg.modules) == 0 {
		return nil
	}
	out := make(protocol.ModuleMap, len(rt.opts.Modules)+len(cfg.modules))
	for name, src := range rt.opts.Modules {
		out[name] = src
	}
	for name, src := range cfg.modules {
		out[name] = src
	}
	return out
}

// bundleMarker starts the source of a run with modules as it is kept
// (and saved in a state): the marker, then the program and its modules
// as JSON.
const bundleMarker = "\x00codemode-bundle\n"

// bundle is a program with its module map, as a state keeps it.
type bundle struct {
	Entry   string             `json:"entry"`
	Modules protocol.ModuleMap `json:"modules"`
}

// encodeBundle writes a program and its modules as one source text; the
// same inputs always give the same text (encoding/json sorts map keys).
func encodeBundle(entry string, mods protocol.ModuleMap) (string, error) {
	b, err := json.Marshal(bundle{Entry: entry, Modules: mods})
	if err != nil {
		return "", err
	}
	return bundleMarker + string(b), nil
}

// decodeBundle reads what encodeBundle wrote; ok is false for a plain
// program.
func decodeBundle(code string) (entry string, mods protocol.ModuleMap, ok bool, err error) {
	rest, ok := strings.CutPrefix(code, bundleMarker)
	if !ok {
		return code, nil, false, nil
	}
	var b bundle
	if err := json.Unmarshal([]byte(rest), &b); err != nil {
		return "", nil, true, fmt.Errorf("the program's module map is malformed: %v", err)
	}
	if err := b.Modules.Validate(); err != nil {
		return "", nil, true, err
	}
	return b.Entry, b.Modules, true, nil
}

// astModules converts a module map for ast.Link.
func astModules(mods protocol.ModuleMap) map[string]ast.ModuleSource {
	out := make(map[string]ast.ModuleSource, len(mods))
	for name, m := range mods {
		text := m.Source
		if m.Kind == protocol.ModuleJSON {
			text = string(m.JSON)
		}
		out[name] = ast.ModuleSource{Kind: string(m.Kind), Text: text}
	}
	return out
}

// hostModule reports whether a run with cfg provides the module name at
// run time (Host.Module): an extension's global, crypto, or one of the
// aliases, with or without the node: prefix.
func (rt *Runtime) hostModule(cfg *execConfig) func(string) bool {
	return func(name string) bool {
		name = strings.TrimPrefix(name, "node:")
		for _, exts := range [][]Extension{rt.opts.Extensions, cfg.extensions} {
			for _, e := range exts {
				if _, ok := e.Globals[name]; ok {
					return true
				}
			}
		}
		if name == "fs/promises" {
			return rt.hostModule(cfg)("fs")
		}
		_, alias := moduleAliases[name]
		return alias || name == "crypto"
	}
}

// parseProgram parses a run's program, linking its modules when it has
// any (code is then the bundle).
func (rt *Runtime) parseProgram(code string, cfg *execConfig) (*ast.Program, error) {
	entry, mods, isBundle, err := decodeBundle(code)
	if err != nil {
		return nil, err
	}
	if !isBundle {
		return ast.ParseWith(code, rt.parseOptions())
	}
	return ast.Link(entry, astModules(mods), ast.LinkOptions{Options: rt.parseOptions(), HostModule: rt.hostModule(cfg)})
}
