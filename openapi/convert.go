package openapi

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/go-codemode/codemode/tools"
)

// converter holds what one conversion shares across operations.
type converter struct {
	doc            *object
	v30            bool
	directionalDoc bool
	hidden         [2]*solver[bool]
	names          [2]*solver[nameSet]
	defs           [2]map[string]*definition
	opts           Options
	baseURL        string // Options.BaseURL, checked
	schemes        map[string]SecurityScheme
	defaultSec     []requirement
	defaultSecErr  string
	hide           []hiddenParam // Options.HideParameters
}

// hiddenParam is one entry of Options.HideParameters.
type hiddenParam struct {
	entry   string // as the host wrote it
	in      string // "" for any location but path
	name    string
	matched bool
}

// parseHidden checks Options.HideParameters: "name" or "in:name", in
// being query, header or cookie.
func parseHidden(entries []string) ([]hiddenParam, error) {
	var out []hiddenParam
	for _, e := range entries {
		h := hiddenParam{entry: e, name: e}
		if in, name, ok := strings.Cut(e, ":"); ok {
			if in != "query" && in != "header" && in != "cookie" {
				return nil, fmt.Errorf("openapi: Options.HideParameters: %q: the location before ':' must be query, header or cookie (path parameters cannot be hidden)", e)
			}
			h.in, h.name = in, name
		}
		if h.name == "" {
			return nil, fmt.Errorf("openapi: Options.HideParameters: %q names no parameter", e)
		}
		out = append(out, h)
	}
	return out, nil
}

// hides reports whether Options.HideParameters hides a parameter.
func (c *converter) hides(in, name string) bool {
	hit := false
	for i := range c.hide {
		h := &c.hide[i]
		if in == "path" || (h.in != "" && h.in != in) {
			continue
		}
		if h.name == name || (in == "header" && strings.EqualFold(h.name, name)) {
			h.matched, hit = true, true
		}
	}
	return hit
}

var methods = map[string]bool{"get": true, "put": true, "post": true, "delete": true, "options": true, "head": true, "patch": true, "trace": true}

// field is one property of a tool's input.
type field struct {
	inputName string
	name      string // the parameter or body property name
	in        string // path, query, header, cookie or body
	required  bool
	schema    *object
	style     string
	explode   bool
}

// body says how a tool's input becomes the request body.
type body struct {
	required  bool
	flattened bool // the body's properties are top-level input fields
	mediaType string
	form      bool // application/x-www-form-urlencoded rather than JSON
}

// requirement is one security requirement: schemes that must all apply.
type requirement struct {
	names  []string
	scopes [][]string
}

// plan is everything a tool needs to make its call.
type plan struct {
	op       Operation
	url      string // base URL + path, without the path's own query
	query    string // a query string written into the path key ("/responses?beta=true")
	accept   string
	jsonOnly bool // every 2xx media type is JSON
	fields   []field
	body     *body
	hidden   []string // Options.HideParameters' names the input may not hold
	security []requirement
	schemes  map[string]SecurityScheme
	call     *caller
}

// pending is an operation on its way to becoming a tool.
type pending struct {
	op     Operation
	raw    *object
	method string
	plan   *plan
	input  assembled
	output *assembled
	reason string
}

func convert(doc *object, docSize int, opts Options, validate func() (*openapi3.T, []string)) (*API, error) {
	c := &converter{doc: doc, opts: opts}
	if opts.BaseURL != "" {
		base, reason := validateBaseURL(opts.BaseURL)
		if reason != "" {
			return nil, fmt.Errorf("openapi: Options.BaseURL: %s", reason)
		}
		c.baseURL = base
	}
	for k, v := range opts.Headers {
		if !validHeaderName(k) || !validHeaderValue(v) {
			return nil, fmt.Errorf("openapi: Options.Headers: %q is not a valid HTTP header", k)
		}
	}
	hide, err := parseHidden(opts.HideParameters)
	if err != nil {
		return nil, err
	}
	c.hide = hide
	info := asObject(doc.val("info"))
	version, _ := doc.val("openapi").(string)
	api := &API{
		Title:       nonEmpty(info.val("title")),
		Version:     nonEmpty(info.val("version")),
		Description: nonEmpty(info.val("description")),
		OpenAPI:     version,
	}
	api.description = cmp.Or(opts.Description, api.Description, api.Title)

	var wg sync.WaitGroup
	if validate != nil {
		wg.Go(func() { api.Document, api.Warnings = validate() })
	}

	c.v30 = strings.HasPrefix(version, "3.0")
	c.directionalDoc = hasDirectional(doc)
	for d := range 2 {
		c.hidden[d] = newSolver[bool]()
		c.names[d] = newSolver[nameSet]()
		c.defs[d] = map[string]*definition{}
	}
	c.schemes = c.securitySchemes()
	sec, present := doc.get("security")
	c.defaultSec, c.defaultSecErr = parseSecurity(sec, present)
	shared := newCaller(opts)

	// The schemas of all tools may not outgrow the document by far: a
	// document that shares one huge inline schema among many operations
	// (through YAML aliases or $refs to parameters and bodies) would
	// otherwise cost time and memory in proportion to their product.
	budget, size := 32*docSize+32<<20, 0
	var ops []*pending
	asObject(doc.val("paths")).each(func(path string, pv any) {
		item := asObject(c.resolve(pv))
		if item == nil {
			return
		}
		item.each(func(method string, ov any) {
			op := asObject(c.resolve(ov))
			if !methods[method] || op == nil {
				return
			}
			p := &pending{raw: op, method: method, op: Operation{
				OperationID: nonEmpty(op.val("operationId")),
				Method:      strings.ToUpper(method),
				Path:        path,
				Summary:     nonEmpty(op.val("summary")),
				Description: nonEmpty(op.val("description")),
			}}
			ops = append(ops, p)
			if size < 0 {
				return
			}
			c.plan(p, item, shared)
			size += len(p.input.json)
			if p.output != nil {
				size += len(p.output.json)
			}
			if size > budget {
				size = -1
			}
		})
	})
	if size < 0 {
		wg.Wait()
		return nil, fmt.Errorf("openapi: the tools' schemas would take more than %d MB; the document repeats large schemas too often", budget>>20)
	}
	for _, h := range c.hide {
		if !h.matched {
			wg.Wait()
			return nil, fmt.Errorf("openapi: Options.HideParameters: %q matches no query, header or cookie parameter of any operation", h.entry)
		}
	}
	c.checkSchemas(ops, validate != nil)

	used, namespaces := map[string]bool{}, map[string]bool{}
	for _, p := range ops {
		if p.reason != "" {
			api.Skipped = append(api.Skipped, Skipped{Method: p.op.Method, Path: p.op.Path, Reason: p.reason})
			continue
		}
		segs := operationPath(p.method, p.op.Path, p.op.OperationID, used, namespaces)
		name := strings.Join(segs, ".")
		used[name] = true
		for i := 1; i < len(segs); i++ {
			namespaces[strings.Join(segs[:i], ".")] = true
		}
		t := &tools.Tool{
			Description: cmp.Or(p.op.Description, p.op.Summary, p.op.Method+" "+p.op.Path),
			Input:       p.input.json,
			Func:        p.plan.invoke,
		}
		if p.output != nil {
			t.Output = p.output.json
		}
		api.Tools = append(api.Tools, Tool{Name: name, Operation: p.op, Tool: t})
	}
	wg.Wait()
	return api, nil
}

// plan builds an operation's plan and schemas, or the reason it is
// skipped. The checks run in the reference's order: output, base URL,
// input, security.
func (c *converter) plan(p *pending, item *object, shared *caller) {
	output, accept, reason := c.output(p.raw)
	if reason != "" {
		p.reason = reason
		return
	}
	base, reason := c.operationBaseURL(item, p.raw)
	if reason != "" {
		p.reason = reason
		return
	}
	fields, b, hidden, reason := c.input(item, p.raw)
	if reason != "" {
		p.reason = reason
		return
	}
	security, reason := c.operationSecurity(p.raw)
	if reason != "" {
		p.reason = reason
		return
	}
	path, query, _ := strings.Cut(p.op.Path, "?")
	p.plan = &plan{
		op:       p.op,
		url:      strings.TrimRight(base, "/") + path,
		query:    query,
		accept:   strings.Join(accept, ", "),
		jsonOnly: len(accept) > 0 && !slices.ContainsFunc(accept, func(mt string) bool { return !isJSONMedia(mt) }),
		fields:   fields,
		body:     b,
		hidden:   hidden,
		security: security,
		schemes:  c.schemes,
		call:     shared,
	}
	in := newObject(3)
	in.set("type", "object")
	props := newObject(len(fields))
	var required []any
	for _, f := range fields {
		props.set(f.inputName, f.schema)
		if f.required {
			required = append(required, f.inputName)
		}
	}
	in.set("properties", props)
	if len(required) > 0 {
		in.set("required", required)
	}
	p.input = c.withDefinitions(in, request)
	for i := range fields {
		fields[i].schema = nil // the calls do not need it
	}
	if p.input.missing != "" {
		p.reason = fmt.Sprintf("input schema references the missing schema '#/components/schemas/%s'", p.input.missing)
		return
	}
	if output != nil {
		out := c.withDefinitions(output, response)
		p.output = &out
		if out.missing != "" {
			p.reason = fmt.Sprintf("output schema references the missing schema '#/components/schemas/%s'", out.missing)
		}
	}
}

// checkSchemas compiles every planned tool's schemas the way tools.New
// will, so that one schema the validator rejects (a keyword of the wrong
// type, a pattern that is not ECMAScript) costs that operation rather than
// the whole tree. All inputs are first compiled as one schema, and all
// outputs as another (or, in a document without readOnly or writeOnly
// loaded with validation, inputs and outputs as one), each definition
// checked once; only when that fails
// is every schema compiled on its own, on all cores, to find the culprits.
func (c *converter) checkSchemas(ops []*pending, validating bool) {
	var ins, outs []*pending
	var inSchemas, outSchemas []assembled
	var each []*pending
	for _, p := range ops {
		if p.reason != "" {
			continue
		}
		if p.input.local || (p.output != nil && p.output.local) {
			each = append(each, p)
			continue
		}
		ins, inSchemas = append(ins, p), append(inSchemas, p.input)
		if p.output != nil {
			outs, outSchemas = append(outs, p), append(outSchemas, *p.output)
		}
	}
	// Every definition the schemas reach was converted by withDefinitions,
	// so the two compilations below only read the converter's caches.
	var wg sync.WaitGroup
	var inErr, outErr error
	switch {
	case validating && !c.directionalDoc && len(ins) > 0:
		// Without readOnly or writeOnly, a component's definition is the
		// same in both directions: one compilation checks each once (a
		// quarter less to compile for OpenAI's document, whose inputs and
		// outputs share 463 definitions). Only while kin-openapi's
		// validation keeps the other core busy: else two compilations in
		// parallel end sooner.
		inErr = tools.CheckSchemas(c.combined(request, inSchemas, outSchemas))
	default:
		if len(ins) > 0 {
			wg.Go(func() { inErr = tools.CheckSchemas(c.combined(request, inSchemas)) })
		}
		if len(outs) > 0 {
			wg.Go(func() { outErr = tools.CheckSchemas(c.combined(response, outSchemas)) })
		}
		wg.Wait()
	}
	if inErr != nil {
		each = append(each, ins...)
	} else if outErr != nil {
		each = append(each, outs...)
	}
	next := make(chan *pending)
	for range min(runtime.GOMAXPROCS(0), len(each)) {
		wg.Go(func() {
			for p := range next {
				if _, err := tools.CompileSchema(p.input.json); err != nil {
					p.reason = "input schema: " + err.Error()
				} else if p.output != nil {
					if _, err := tools.CompileSchema(p.output.json); err != nil {
						p.reason = "output schema: " + err.Error()
					}
				}
			}
		})
	}
	for _, p := range each {
		next <- p
	}
	close(next)
	wg.Wait()
}

// Media types.

func mediaBase(mt string) string {
	base, _, _ := strings.Cut(mt, ";")
	return strings.ToLower(strings.TrimSpace(base))
}

func isJSONMedia(mt string) bool {
	b := mediaBase(mt)
	return b == "application/json" || strings.HasSuffix(b, "+json")
}

// output builds the output schema from the 2xx responses, or the reason
// the operation is skipped, and lists the media types to accept.
//
// Beyond the reference, a response that offers JSON alongside other media
// types (XML, an event stream) is taken as JSON: the request asks for
// JSON with an Accept header, and the other types are not considered.
func (c *converter) output(op *object) (*object, []string, string) {
	if op.val("x-websocket") == true {
		return nil, nil, "WebSocket operations are not supported"
	}
	responses := asObject(op.val("responses"))
	var exact, ranges []string
	if responses != nil {
		for _, k := range responses.keys {
			if len(k) == 3 && k[0] == '2' && isDigit(k[1]) && isDigit(k[2]) {
				exact = append(exact, k)
			}
		}
		slices.Sort(exact)
		for _, k := range responses.keys {
			if strings.ToUpper(k) == "2XX" {
				ranges = append(ranges, k)
			}
		}
	}
	type outcome struct {
		resp  *object
		types []string // the media types considered, in order
	}
	var selected []outcome
	for _, k := range append(exact, ranges...) {
		r := asObject(c.resolve(responses.val(k)))
		if r == nil || nonEmpty(r.val("$ref")) != "" {
			return nil, nil, "successful response declaration is invalid or unresolved"
		}
		o := outcome{resp: r}
		content := asObject(r.val("content"))
		var all, json []string
		content.each(func(mt string, _ any) {
			all = append(all, mt)
			if isJSONMedia(mt) {
				json = append(json, mt)
			}
		})
		o.types = all
		if len(json) > 0 {
			o.types = json
		}
		selected = append(selected, o)
	}
	var accept []string
	for _, o := range selected {
		for _, mt := range o.types {
			if mediaBase(mt) == "text/event-stream" {
				return nil, nil, "SSE operations are not supported"
			}
		}
	}
	for _, o := range selected {
		content := asObject(o.resp.val("content"))
		for _, mt := range o.types {
			if c.isBinary(mt, content.val(mt)) {
				return nil, nil, "binary responses are not supported"
			}
			if !slices.Contains(accept, mt) {
				accept = append(accept, mt)
			}
		}
	}
	var outcomes []any
	for _, o := range selected {
		cv, present := o.resp.get("content")
		content := asObject(cv)
		if present && content == nil {
			return nil, accept, ""
		}
		if len(o.types) == 0 {
			null := newObject(1)
			null.set("type", "null")
			outcomes = append(outcomes, null)
			continue
		}
		for _, mt := range o.types {
			if !isJSONMedia(mt) {
				str := newObject(1)
				str.set("type", "string")
				outcomes = append(outcomes, str)
				continue
			}
			media := asObject(content.val(mt))
			schema, has := media.get("schema")
			if !has {
				return nil, accept, ""
			}
			outcomes = append(outcomes, c.project(schema, response, ""))
		}
	}
	switch len(outcomes) {
	case 0:
		return nil, accept, ""
	case 1:
		return outcomes[0].(*object), accept, ""
	}
	any := newObject(1)
	any.set("anyOf", outcomes)
	return any, accept, ""
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// isBinary: a media type that is neither JSON nor text, or a schema of
// format binary.
func (c *converter) isBinary(mt string, media any) bool {
	b := mediaBase(mt)
	if !isJSONMedia(b) && !strings.HasPrefix(b, "text/") {
		return true
	}
	m := asObject(media)
	if m == nil {
		return false
	}
	return asObject(c.resolve(m.val("schema"))).val("format") == "binary"
}

// Base URLs.

func (c *converter) operationBaseURL(item, op *object) (string, string) {
	if c.baseURL != "" {
		return c.baseURL, ""
	}
	if _, ok := op.get("servers"); ok {
		return c.serverURL(op)
	}
	if _, ok := item.get("servers"); ok {
		return c.serverURL(item)
	}
	return c.serverURL(c.doc)
}

var templateVar = regexp.MustCompile(`\{([^{}]+)\}`)

// serverURL takes the first server of source. Beyond the reference, its
// {variables} take Options.ServerVariables or their declared defaults.
func (c *converter) serverURL(source *object) (string, string) {
	var server *object
	for _, s := range asArray(source.val("servers")) {
		if server = asObject(s); server != nil {
			break
		}
	}
	raw := nonEmpty(server.val("url"))
	if raw == "" {
		return "", "spec declares no servers; pass baseUrl"
	}
	resolved := raw
	if templateVar.MatchString(raw) {
		vars := asObject(server.val("variables"))
		ok := true
		resolved = templateVar.ReplaceAllStringFunc(raw, func(m string) string {
			name := m[1 : len(m)-1]
			if v, set := c.opts.ServerVariables[name]; set {
				return v
			}
			if d, isStr := asObject(vars.val(name)).val("default").(string); isStr {
				return d
			}
			ok = false
			return m
		})
		if !ok {
			return "", fmt.Sprintf("server URL '%s' is not an absolute URL; pass baseUrl", raw)
		}
	}
	return validateBaseURL(resolved)
}

func validateBaseURL(v string) (string, string) {
	lower := strings.ToLower(v)
	if !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
		return "", fmt.Sprintf("server URL '%s' is not an absolute HTTP(S) URL", v)
	}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Sprintf("server URL '%s' is not an absolute HTTP(S) URL", v)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Sprintf("server URL '%s' contains an unsupported query string or fragment", v)
	}
	return strings.TrimRight(v, "/"), ""
}

// Input.

var ignoredHeaders = map[string]bool{"accept": true, "content-type": true, "authorization": true}

var locationOrder = []string{"path", "query", "header", "cookie"}

// input plans the tool's input fields: parameters by location, then the
// body, names that clash across locations prefixed by their location.
func (c *converter) input(item, op *object) ([]field, *body, []string, string) {
	params, hidden, reason := c.parameters(item, op)
	if reason != "" {
		return nil, nil, nil, reason
	}
	bodyFields, b, reason := c.body(op)
	if reason != "" {
		return nil, nil, nil, reason
	}
	fields := append(params, bodyFields...)
	count := map[string]int{}
	for _, f := range fields {
		count[f.name]++
	}
	used := map[string]bool{}
	for i := range fields {
		base := fields[i].name
		if count[base] > 1 {
			base = fields[i].in + "_" + base
		}
		name := base
		for n := 2; used[name]; n++ {
			name = fmt.Sprintf("%s_%d", base, n)
		}
		used[name] = true
		fields[i].inputName = name
	}
	// A hidden parameter's name is refused in the input, unless a visible
	// field took it.
	var refused []string
	for _, h := range hidden {
		if !used[h] && !contains(refused, h) {
			refused = append(refused, h)
		}
	}
	return fields, b, refused, ""
}

type declared struct {
	name, in string
	param    *object
}

func (c *converter) parameters(item, op *object) ([]field, []string, string) {
	var order []string
	byKey := map[string]declared{}
	for _, raw := range append(slices.Clone(asArray(item.val("parameters"))), asArray(op.val("parameters"))...) {
		p := asObject(c.resolve(raw))
		if p == nil {
			return nil, nil, "parameter declaration is invalid or unresolved"
		}
		name, in := nonEmpty(p.val("name")), nonEmpty(p.val("in"))
		if name == "" || in == "" {
			return nil, nil, "parameter declaration is missing name or location"
		}
		key := in + ":" + name
		if _, seen := byKey[key]; !seen {
			order = append(order, key)
		}
		byKey[key] = declared{name, in, p}
	}
	var unordered []field
	var hidden []string
	for _, key := range order {
		d := byKey[key]
		name, in, p := d.name, d.in, d.param
		if in != "path" && in != "query" && in != "header" && in != "cookie" {
			return nil, nil, fmt.Sprintf("parameter '%s' uses unsupported location '%s'", name, in)
		}
		if in == "header" && ignoredHeaders[strings.ToLower(name)] {
			continue
		}
		if c.hides(in, name) {
			hidden = append(hidden, name)
			continue
		}
		if (in == "header" && !validHeaderName(name)) || (in == "cookie" && !validCookieName(name)) {
			return nil, nil, fmt.Sprintf("%s parameter '%s' has an invalid name", in, name)
		}
		schema, hasSchema := p.get("schema")
		_, hasContent := p.get("content")
		if !hasSchema && !hasContent {
			return nil, nil, fmt.Sprintf("parameter '%s' declares neither schema nor content", name)
		}
		if hasContent {
			return nil, nil, fmt.Sprintf("parameter '%s' uses unsupported content encoding", name)
		}
		styleVal, hasStyle := p.get("style")
		if hasStyle && nonEmpty(styleVal) == "" {
			return nil, nil, fmt.Sprintf("parameter '%s' has an invalid style", name)
		}
		explodeVal, hasExplode := p.get("explode")
		if _, ok := explodeVal.(bool); hasExplode && !ok {
			return nil, nil, fmt.Sprintf("parameter '%s' has an invalid explode value", name)
		}
		reserved, hasReserved := p.get("allowReserved")
		if _, ok := reserved.(bool); hasReserved && !ok {
			return nil, nil, fmt.Sprintf("parameter '%s' has an invalid allowReserved value", name)
		}
		if reserved == true {
			return nil, nil, fmt.Sprintf("parameter '%s' uses unsupported allowReserved encoding", name)
		}
		style := nonEmpty(styleVal)
		if style == "" {
			style = "simple"
			if in == "query" || in == "cookie" {
				style = "form"
			}
		}
		if !supportedStyle(in, style) {
			if in == "query" {
				return nil, nil, fmt.Sprintf("query parameter '%s' uses unsupported style '%s'", name, style)
			}
			return nil, nil, fmt.Sprintf("%s parameter '%s' uses unsupported style '%s'", in, name, style)
		}
		explode := style == "form"
		if b, ok := explodeVal.(bool); ok {
			explode = b
		}
		if style == "deepObject" && !explode {
			return nil, nil, fmt.Sprintf("query parameter '%s' uses deepObject with explode=false", name)
		}
		s := c.project(schema, request, "")
		if _, has := s.get("description"); !has {
			if desc := nonEmpty(p.val("description")); desc != "" {
				s.set("description", desc)
			}
		}
		unordered = append(unordered, field{
			name: name, in: in, style: style, explode: explode, schema: s,
			required: p.val("required") == true || in == "path",
		})
	}
	var fields []field
	for _, loc := range locationOrder {
		for _, f := range unordered {
			if f.in == loc {
				fields = append(fields, f)
			}
		}
	}
	return fields, hidden, ""
}

// supportedStyle: the reference's styles (query form and deepObject; path
// and header simple) and, beyond it, path label and matrix, query
// spaceDelimited and pipeDelimited, and cookie form.
func supportedStyle(in, style string) bool {
	switch in {
	case "query":
		return style == "form" || style == "deepObject" || style == "spaceDelimited" || style == "pipeDelimited"
	case "path":
		return style == "simple" || style == "label" || style == "matrix"
	case "header":
		return style == "simple"
	case "cookie":
		return style == "form"
	}
	return false
}

// body plans the request body: the first JSON media type (beyond the
// reference, else application/x-www-form-urlencoded), flattened into
// top-level fields when the reference would.
func (c *converter) body(op *object) ([]field, *body, string) {
	rb := asObject(c.resolve(op.val("requestBody")))
	if rb == nil {
		return nil, nil, ""
	}
	content := asObject(rb.val("content"))
	var types []string
	var mediaType string
	var media *object
	form := false
	content.each(func(mt string, v any) {
		types = append(types, mt)
		if mediaType == "" && isJSONMedia(mt) {
			mediaType, media = mt, asObject(v)
		}
	})
	if mediaType != "" && media == nil {
		mediaType = ""
	}
	if mediaType == "" {
		content.each(func(mt string, v any) {
			if mediaType == "" && mediaBase(mt) == "application/x-www-form-urlencoded" && asObject(v) != nil {
				mediaType, media, form = mt, asObject(v), true
			}
		})
	}
	if mediaType == "" {
		declared := strings.Join(types, ", ")
		if declared == "" {
			declared = "none"
		}
		return nil, nil, fmt.Sprintf("request body has no JSON content (declared: %s)", declared)
	}
	raw := media.val("schema")
	resolved := c.resolve(raw)
	schema := resolved
	if c.directionalDoc {
		schema = c.directional(resource{resolved, resolved}, request, nil)
	}
	required := rb.val("required") == true
	b := &body{required: required, mediaType: mediaType, form: form}
	if !flattenable(schema, required) {
		return []field{{name: "body", in: "body", required: required, schema: c.project(raw, request, "")}}, b, ""
	}
	b.flattened = true
	o := asObject(schema)
	req := map[string]bool{}
	for _, n := range asArray(o.val("required")) {
		if s, ok := n.(string); ok {
			req[s] = true
		}
	}
	var fields []field
	asObject(o.val("properties")).each(func(name string, v any) {
		fields = append(fields, field{name: name, in: "body", required: required && req[name], schema: c.normalize(v, "")})
	})
	return fields, b, ""
}

// flattenable: only a required, closed object body with properties and
// no composition has its properties as top-level fields.
func flattenable(schema any, required bool) bool {
	o := asObject(schema)
	if o == nil || !required || o.val("type") != "object" || asObject(o.val("properties")) == nil {
		return false
	}
	if o.val("additionalProperties") != false || o.val("nullable") == true {
		return false
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if _, ok := o.get(k); ok {
			return false
		}
	}
	return true
}

// Security.

// SecurityScheme is a security scheme of the document, as the auth
// resolver sees it.
type SecurityScheme struct {
	// Type is "apiKey", "http", "oauth2" or "openIdConnect".
	Type string
	// Scheme is the http scheme, lower case ("bearer", "basic").
	Scheme string
	// Name and In are an apiKey's parameter name and location ("header",
	// "query" or "cookie").
	Name, In string
}

func (c *converter) securitySchemes() map[string]SecurityScheme {
	out := map[string]SecurityScheme{}
	asObject(asObject(c.doc.val("components")).val("securitySchemes")).each(func(name string, v any) {
		s := asObject(c.resolve(v))
		switch t := nonEmpty(s.val("type")); t {
		case "apiKey":
			in, param := nonEmpty(s.val("in")), nonEmpty(s.val("name"))
			if param != "" && (in == "header" || in == "query" || in == "cookie") {
				out[name] = SecurityScheme{Type: t, Name: param, In: in}
			}
		case "http":
			if scheme := nonEmpty(s.val("scheme")); scheme != "" {
				out[name] = SecurityScheme{Type: t, Scheme: strings.ToLower(scheme)}
			}
		case "oauth2", "openIdConnect":
			out[name] = SecurityScheme{Type: t}
		}
	})
	return out
}

func parseSecurity(v any, present bool) ([]requirement, string) {
	if !present {
		return nil, ""
	}
	list, ok := v.([]any)
	if !ok {
		return nil, "security declaration is not an array"
	}
	reqs := []requirement{}
	for _, item := range list {
		o := asObject(item)
		if o == nil {
			return nil, "security requirement is not an object"
		}
		var r requirement
		bad := false
		o.each(func(name string, scopes any) {
			arr, ok := scopes.([]any)
			if !ok {
				bad = true
				return
			}
			ss := make([]string, 0, len(arr))
			for _, s := range arr {
				str, ok := s.(string)
				if !ok {
					bad = true
					return
				}
				ss = append(ss, str)
			}
			r.names = append(r.names, name)
			r.scopes = append(r.scopes, ss)
		})
		if bad {
			return nil, "security requirement scopes are not string arrays"
		}
		reqs = append(reqs, r)
	}
	return reqs, ""
}

// operationSecurity keeps the requirements that can be met; cookie
// authentication alternatives are dropped, and an operation left with
// none is skipped.
func (c *converter) operationSecurity(op *object) ([]requirement, string) {
	v, present := op.get("security")
	reqs, reason := c.defaultSec, c.defaultSecErr
	if present {
		reqs, reason = parseSecurity(v, true)
	}
	if reason != "" {
		return nil, reason
	}
	var supported []requirement
	for _, r := range reqs {
		ok := true
		for _, n := range r.names {
			s, known := c.schemes[n]
			if !known || (s.Type == "apiKey" && s.In == "cookie") {
				ok = false
			}
		}
		if ok {
			supported = append(supported, r)
		}
	}
	if len(reqs) == 0 || len(supported) > 0 {
		return supported, ""
	}
	var names []string
	for _, r := range reqs {
		for _, n := range r.names {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	for _, n := range names {
		if s := c.schemes[n]; s.Type == "apiKey" && s.In == "cookie" {
			return nil, fmt.Sprintf("cookie authentication '%s' is not supported", n)
		}
	}
	return nil, "security requirement references missing or malformed scheme: " + strings.Join(names, ", ")
}

// Naming.

var unsafeRun = regexp.MustCompile(`[^A-Za-z0-9_$]+`)

// sanitizeSegment makes one segment of a tool name an identifier.
func sanitizeSegment(raw string) string {
	s := strings.Trim(unsafeRun.ReplaceAllString(raw, "_"), "_")
	if s != "" && isDigit(s[0]) {
		s = "_" + s
	}
	if s == "" {
		return "operation"
	}
	return s
}

var nonAlnum = regexp.MustCompile(`[^A-Za-z0-9]+`)

// fallbackName is the camelCase of the method and the path's words, a
// {param} reading "by param": GET /users/{id} is getUsersById.
func fallbackName(method, path string) string {
	words := []string{method}
	for _, part := range strings.Split(path, "/") {
		if part == "" {
			continue
		}
		if strings.HasPrefix(part, "{") && strings.HasSuffix(part, "}") && len(part) >= 2 {
			words = append(words, "by", part[1:len(part)-1])
		} else {
			words = append(words, part)
		}
	}
	var b strings.Builder
	i := 0
	for _, w := range words {
		for _, word := range nonAlnum.Split(w, -1) {
			if word == "" {
				continue
			}
			lower := strings.ToLower(word)
			if i > 0 {
				lower = strings.ToUpper(lower[:1]) + lower[1:]
			}
			b.WriteString(lower)
			i++
		}
	}
	return b.String()
}

// operationPath names a tool: the operationId's dot-separated segments,
// sanitized, or the fallback name; on a clash with a tool that is a prefix
// of it, the clashing segment merges with the next one, and otherwise the
// segments join with "_" and get a counter from 2.
func operationPath(method, path, operationID string, used, namespaces map[string]bool) []string {
	var segs []string
	if operationID == "" {
		segs = []string{sanitizeSegment(fallbackName(method, path))}
	} else {
		for _, s := range strings.Split(operationID, ".") {
			segs = append(segs, sanitizeSegment(s))
		}
	}
	if pathAvailable(segs, used, namespaces) {
		return segs
	}
	conflict := -1
	for i := 0; i < len(segs)-1; i++ {
		if used[strings.Join(segs[:i+1], ".")] {
			conflict = i
			break
		}
	}
	if conflict >= 0 && conflict+1 < len(segs) {
		next := segs[conflict+1]
		merged := segs[conflict] + strings.ToUpper(next[:min(1, len(next))]) + next[min(1, len(next)):]
		collapsed := append(append(slices.Clone(segs[:conflict]), merged), segs[conflict+2:]...)
		if pathAvailable(collapsed, used, namespaces) {
			return collapsed
		}
	}
	fallback := strings.Join(segs, "_")
	for n := 2; ; n++ {
		candidate := fmt.Sprintf("%s_%d", fallback, n)
		if pathAvailable([]string{candidate}, used, namespaces) {
			return []string{candidate}
		}
	}
}

func pathAvailable(segs []string, used, namespaces map[string]bool) bool {
	key := strings.Join(segs, ".")
	if used[key] || namespaces[key] {
		return false
	}
	for i := 1; i < len(segs); i++ {
		if used[strings.Join(segs[:i], ".")] {
			return false
		}
	}
	return true
}

// HTTP syntax checks.

func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

func validHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

func validCookieName(s string) bool {
	return validHeaderName(s) && (&http.Cookie{Name: s, Value: "x"}).String() != ""
}
