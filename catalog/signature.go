package catalog

import (
	"encoding/json"
	"strings"

	"github.com/go-codemode/codemode/tools"
)

// Signature renders a tool's signature as the model sees it:
//
//	tools.github.list_issues({
//	  /** Repository owner */
//	  owner: string,
//	}): Promise<unknown>
//
// path is the tool's path segments (rendered by tools.Expression, so
// tools.context7["resolve-library-id"]); input and output are its JSON
// Schemas. An empty input (see IsEmptyInput) gives "()", a missing output
// schema Promise<void>. It is SignatureWithOptions with the zero Options.
func Signature(path []string, input, output json.RawMessage) string {
	return SignatureWithOptions(path, input, output, Options{})
}

// SignatureWithOptions is Signature with size limits. With MaxChars the
// whole signature is kept within the budget: the output type gives way
// first (the input keeps its full text as long as that leaves the output
// a third of the budget), then both are fitted as Options describes.
func SignatureWithOptions(path []string, input, output json.RawMessage, opts Options) string {
	expr := tools.Expression(path)
	in, out := parseSchema(input), parseSchema(output)
	empty := in.isEmpty()
	compose := func(i, o string) string {
		if empty {
			return expr + "(): Promise<" + o + ">"
		}
		return expr + "(" + i + "): Promise<" + o + ">"
	}
	lim := opts.limits()
	inText, outText := "", "void"
	if !empty {
		inText, _ = in.render(true, lim)
	}
	if out.present {
		outText, _ = out.render(true, lim)
	}
	full := compose(inText, outText)
	if opts.MaxChars <= 0 || chars(full) <= opts.MaxChars {
		return full
	}
	avail := opts.MaxChars - chars(compose("", ""))
	if !empty {
		budget := avail - chars(outText) // what the input may take
		if out.present {
			budget = max(budget, avail*2/3)
		}
		if chars(inText) > budget {
			inText = in.fit(true, lim, max(budget, 1))
		}
	}
	if out.present {
		outText = out.fit(true, lim, max(avail-chars(inText), 1))
	}
	return compose(inText, outText)
}

// IsEmptyInput reports whether an input schema takes no arguments, so that
// its signature shows "()": no schema (empty or JSON null), or one whose
// compact form is {} — {type: "object"} with no properties, {not: {type:
// "null"}}, [{type: "object"}, {type: "array"}] alternatives. Records
// (additionalProperties: a schema, or true), pattern records
// (patternProperties) and minProperties objects are not empty.
func IsEmptyInput(input json.RawMessage) bool {
	return parseSchema(input).isEmpty()
}

func (d schemaDoc) isEmpty() bool {
	if !d.present {
		return true
	}
	if s, _ := d.render(false, limits{}); s != "{}" {
		return false
	}
	root, _ := d.root.(*object)
	if root == nil {
		return true
	}
	targets := []*object{root}
	if ref, ok := root.get("$ref"); ok {
		if name, ok := definitionName(ref); ok {
			if def, ok := enter(nil, root).lookup(name); ok {
				if o, ok := def.(*object); ok {
					targets = append(targets, o)
				}
			}
		}
	}
	for _, o := range targets {
		if p, ok := o.obj("patternProperties"); ok && len(p.keys) > 0 {
			return false
		}
		if n, ok := o.num("minProperties"); ok && n > 0 {
			return false
		}
		if v, _ := o.get("additionalProperties"); v == true {
			return false
		}
	}
	return true
}

// The schemas of the built-in search(...) (reference section 3.9).
const (
	searchInput = `{"type":"object","properties":{` +
		`"query":{"type":"string"},` +
		`"namespace":{"type":"string"},` +
		`"limit":{"type":"integer","exclusiveMinimum":0},` +
		`"offset":{"type":"integer","minimum":0}}}`
	searchOutput = `{"type":"object","properties":{` +
		`"items":{"type":"array","items":{"type":"object","properties":{` +
		`"path":{"type":"string"},"description":{"type":"string"},"signature":{"type":"string"}},` +
		`"required":["path","description","signature"]}},` +
		`"remaining":{"type":"integer","minimum":0},` +
		`"next":{"anyOf":[{"type":"object","properties":{"offset":{"type":"integer","minimum":0}},"required":["offset"]},{"type":"null"}]}},` +
		`"required":["items","remaining","next"]}`
)

// SearchInputSchema returns the JSON Schema of search's argument:
// { query?: string, namespace?: string, limit?: integer > 0, offset?:
// integer ≥ 0 }.
func SearchInputSchema() json.RawMessage { return json.RawMessage(searchInput) }

// SearchOutputSchema returns the JSON Schema of search's result:
// { items: [{path, description, signature}], remaining, next: {offset} | null }.
func SearchOutputSchema() json.RawMessage { return json.RawMessage(searchOutput) }

// SearchSignature renders the signature of the built-in search(...) for a
// prompt. Search is synchronous, so there is no Promise:
//
//	search({
//	  query?: string,
//	  ...
//	}): {
//	  items: Array<{ ... }>,
//	  ...
//	}
func SearchSignature() string {
	return "search(" + Render(SearchInputSchema(), Options{}) + "): " + Render(SearchOutputSchema(), Options{})
}

// ToolExpression renders a tool's dotted path as a program writes it:
// tools.a.b, or tools.context7["resolve-library-id"] for names that are
// not identifiers (reference 3.10's toolExpression).
func ToolExpression(path string) string { return tools.Expression(strings.Split(path, ".")) }
