package catalog

import (
	"strings"
	"unicode/utf8"
)

// maxColumns is the reference's line width for one-line JSDoc.
const maxColumns = 120

// docTags returns a schema's JSDoc tags in the reference's fixed order.
func docTags(o *object) []string {
	var tags []string
	if v, _ := o.get("deprecated"); v == true {
		tags = append(tags, "@deprecated")
	}
	if v, ok := o.get("default"); ok {
		tags = append(tags, "@default "+stringify(v))
	}
	if f, ok := o.str("format"); ok {
		tags = append(tags, "@format "+f)
	}
	if t, _ := o.str("type"); t == "integer" {
		tags = append(tags, "@integer")
	}
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength"} {
		if n, ok := o.num(k); ok {
			tags = append(tags, "@"+k+" "+jsNumber(n))
		}
	}
	if p, ok := o.str("pattern"); ok {
		tags = append(tags, "@pattern "+p)
	}
	for _, k := range []string{"minItems", "maxItems"} {
		if n, ok := o.num(k); ok {
			tags = append(tags, "@"+k+" "+jsNumber(n))
		}
	}
	if v, _ := o.get("uniqueItems"); v == true {
		tags = append(tags, "@uniqueItems true")
	}
	return tags
}

// description returns the description to document, shortened or dropped
// as the limits say; shortened reports a cut.
func (r *renderer) description(o *object) (text string, shortened bool) {
	d, _ := o.str("description")
	if d == "" {
		return "", false
	}
	r.st.descs = true
	if r.lim.noDesc {
		return "", false
	}
	if r.lim.desc > 0 {
		return shorten(d, r.lim.desc)
	}
	return d, false
}

// shorten cuts a description longer than n characters (its white space
// collapsed) to a single line of at most n characters ending in "…",
// backing up to a word boundary when one is near.
func shorten(d string, n int) (string, bool) {
	flat := strings.Join(strings.FieldsFunc(d, isJSSpace), " ")
	if utf8.RuneCountInString(flat) <= n {
		return d, false
	}
	runes := []rune(flat)
	cut := runes[:max(n-1, 0)]
	if runes[len(cut)] != ' ' { // mid-word: back up to its start if near
		for i := len(cut) - 1; i > len(cut)*2/3; i-- {
			if cut[i] == ' ' {
				cut = cut[:i]
				break
			}
		}
	}
	s := strings.TrimRightFunc(string(cut), func(c rune) bool {
		return isJSSpace(c) || strings.ContainsRune(",;:-–—(", c)
	})
	return s + "…", true
}

// docLines is the reference's docLines: the description's lines (blank
// edge lines dropped, trailing space trimmed) and the tags, joined as
// "Desc. @tags" when that fits in the 120 columns at width.
func (r *renderer) docLines(s any, width int) []string {
	o, ok := s.(*object)
	if !ok {
		return nil
	}
	summary := strings.Join(docTags(o), " ")
	desc, shortened := r.description(o)
	var lines []string
	if desc != "" {
		lines = strings.Split(desc, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRightFunc(l, isJSSpace)
		}
		for len(lines) > 0 && strings.TrimFunc(lines[0], isJSSpace) == "" {
			lines = lines[1:]
		}
		for len(lines) > 0 && strings.TrimFunc(lines[len(lines)-1], isJSSpace) == "" {
			lines = lines[:len(lines)-1]
		}
	}
	if summary != "" && len(lines) == 1 && !strings.Contains(summary, "\n") {
		sep := "."
		if strings.HasSuffix(lines[0], ".") || shortened {
			sep = ""
		}
		if inline := lines[0] + sep + " " + summary; width+jsLen(inline)+7 <= maxColumns {
			return []string{inline}
		}
	}
	if summary != "" {
		lines = append(lines, strings.Split(summary, "\n")...)
	}
	return lines
}

// jsdoc renders a property's comment at pad: its own lines, then those of
// its immediate items ("Each item: …") and dictionary values ("Each value:
// …", "Each additional value: …"); one line as /** … */, more as a block.
// "*/" inside the text becomes "* /".
func (r *renderer) jsdoc(s any, pad string) string {
	o, ok := s.(*object)
	if !ok {
		return ""
	}
	content := r.docLines(o, len(pad))
	add := func(label string, child any) {
		for i, line := range r.docLines(child, len(pad)+len(label)+2) {
			switch {
			case i == 0:
				content = append(content, label+": "+line)
			case line != "":
				content = append(content, "  "+line)
			default:
				content = append(content, "")
			}
		}
	}
	types := typeNames(o)
	if items, ok := o.obj("items"); ok && contains(types, "array") {
		if prefix, ok := o.arr("prefixItems"); ok && len(prefix) > 0 {
			add("Each additional item", items)
		} else {
			add("Each item", items)
		}
	}
	props, hasProps := o.obj("properties")
	if ap, ok := o.obj("additionalProperties"); ok && (contains(types, "object") || hasProps) {
		label := "Each value"
		if hasProps && len(props.keys) > 0 {
			label = "Each additional value"
		}
		add(label, ap)
	}
	if len(content) == 0 {
		return ""
	}
	for i, line := range content {
		content[i] = strings.ReplaceAll(line, "*/", "* /")
	}
	if len(content) == 1 && len(pad)+jsLen(content[0])+7 <= maxColumns {
		return pad + "/** " + content[0] + " */\n"
	}
	var b strings.Builder
	b.WriteString(pad + "/**\n")
	for _, line := range content {
		b.WriteString(pad + " *")
		if line != "" {
			b.WriteString(" " + line)
		}
		b.WriteString("\n")
	}
	b.WriteString(pad + " */\n")
	return b.String()
}
