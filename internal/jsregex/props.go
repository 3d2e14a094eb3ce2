package jsregex

// This file resolves \p{...} and \P{...} property escapes to character sets,
// the way V8 does (exact names and aliases only, no loose matching, the same
// allow-list of binary properties). General_Category and Script come from
// Go's unicode tables; the derived binary properties are computed from them
// with the formulas of Unicode's DerivedCoreProperties.txt; the few tables Go
// lacks are in tables_gen.go. Go's tables follow an older Unicode version
// than V8's ICU, so characters assigned since then differ (see the skip list
// in testdata).

import (
	"sync"
	"unicode"
)

// fromTable converts a unicode.RangeTable to a charSet.
func fromTable(t *unicode.RangeTable) charSet {
	var rs []rng
	for _, r := range t.R16 {
		if r.Stride == 1 {
			rs = append(rs, rng{rune(r.Lo), rune(r.Hi)})
			continue
		}
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			rs = append(rs, rng{c, c})
		}
	}
	for _, r := range t.R32 {
		if r.Stride == 1 {
			rs = append(rs, rng{rune(r.Lo), rune(r.Hi)})
			continue
		}
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			rs = append(rs, rng{c, c})
		}
	}
	return normalize(rs)
}

var (
	propMu    sync.Mutex
	propCache = map[string]charSet{}
)

// cached computes a set once per key.
func cached(key string, f func() charSet) charSet {
	propMu.Lock()
	s, ok := propCache[key]
	propMu.Unlock()
	if ok {
		return s
	}
	s = f()
	propMu.Lock()
	propCache[key] = s
	propMu.Unlock()
	return s
}

func cat(name string) charSet {
	return cached("gc:"+name, func() charSet { return fromTable(unicode.Categories[name]) })
}

func unions(sets ...charSet) charSet {
	var out charSet
	for _, s := range sets {
		out = union(out, s)
	}
	return out
}

// assigned returns every character with a General_Category other than Cn.
func assigned() charSet {
	return cached("assigned", func() charSet {
		var out charSet
		for name, t := range unicode.Categories {
			if len(name) == 2 && name != "Cn" && name != "LC" {
				out = union(out, fromTable(t))
			}
		}
		return out
	})
}

// gcAliases maps every General_Category value alias V8 accepts to its short
// name.
var gcAliases = map[string]string{}

func init() {
	for _, line := range [][]string{
		{"C", "Other"}, {"Cc", "Control", "cntrl"}, {"Cf", "Format"}, {"Cn", "Unassigned"},
		{"Co", "Private_Use"}, {"Cs", "Surrogate"}, {"L", "Letter"}, {"LC", "Cased_Letter"},
		{"Ll", "Lowercase_Letter"}, {"Lm", "Modifier_Letter"}, {"Lo", "Other_Letter"},
		{"Lt", "Titlecase_Letter"}, {"Lu", "Uppercase_Letter"}, {"M", "Mark", "Combining_Mark"},
		{"Mc", "Spacing_Mark"}, {"Me", "Enclosing_Mark"}, {"Mn", "Nonspacing_Mark"},
		{"N", "Number"}, {"Nd", "Decimal_Number", "digit"}, {"Nl", "Letter_Number"},
		{"No", "Other_Number"}, {"P", "Punctuation", "punct"}, {"Pc", "Connector_Punctuation"},
		{"Pd", "Dash_Punctuation"}, {"Pe", "Close_Punctuation"}, {"Pf", "Final_Punctuation"},
		{"Pi", "Initial_Punctuation"}, {"Po", "Other_Punctuation"}, {"Ps", "Open_Punctuation"},
		{"S", "Symbol"}, {"Sc", "Currency_Symbol"}, {"Sk", "Modifier_Symbol"},
		{"Sm", "Math_Symbol"}, {"So", "Other_Symbol"}, {"Z", "Separator"},
		{"Zl", "Line_Separator"}, {"Zp", "Paragraph_Separator"}, {"Zs", "Space_Separator"},
	} {
		for _, n := range line {
			gcAliases[n] = line[0]
		}
	}
}

// generalCategory returns the set of a General_Category value.
func generalCategory(value string) (charSet, bool) {
	short, ok := gcAliases[value]
	if !ok {
		return nil, false
	}
	return cached("gcv:"+short, func() charSet {
		switch short {
		case "Cn":
			return complement(assigned(), maxCodePoint)
		case "C":
			return unions(cat("Cc"), cat("Cf"), cat("Co"), cat("Cs"), complement(assigned(), maxCodePoint))
		case "LC":
			return unions(cat("Lu"), cat("Ll"), cat("Lt"))
		}
		return cat(short)
	}), true
}

// scriptName resolves a Script value alias to Go's script name ("Unknown"
// for Zzzz).
func scriptName(value string) (string, bool) {
	if value == "Unknown" || value == "Zzzz" {
		return "Unknown", true
	}
	if _, ok := unicode.Scripts[value]; ok {
		return value, true
	}
	for name, aliases := range scriptAliases {
		for _, a := range aliases {
			if a == value {
				return name, true
			}
		}
	}
	return "", false
}

// script returns the characters of one Script (or Script_Extensions).
func script(value string, extensions bool) (charSet, bool) {
	name, ok := scriptName(value)
	if !ok {
		return nil, false
	}
	key := "sc:" + name
	if extensions {
		key = "scx:" + name
	}
	return cached(key, func() charSet {
		var s charSet
		if name == "Unknown" {
			var all charSet
			for _, t := range unicode.Scripts {
				all = union(all, fromTable(t))
			}
			s = complement(all, maxCodePoint)
		} else {
			s = fromTable(unicode.Scripts[name])
		}
		if extensions {
			s = subtract(union(s, scxExtra[name]), scxRemoved[name])
		}
		return s
	}), true
}

func prop(name string) charSet {
	return cached("prop:"+name, func() charSet { return fromTable(unicode.Properties[name]) })
}

// caseChanging returns the characters that the given simple mapping changes,
// plus the ones with a multi-character full mapping when withSpecial is set.
func caseChanging(key string, m func(rune) rune, withSpecial bool) charSet {
	return cached(key, func() charSet {
		var rs []rng
		for _, cr := range unicode.CaseRanges {
			for c := rune(cr.Lo); c <= rune(cr.Hi); c++ {
				if m(c) != c {
					rs = append(rs, rng{c, c})
				}
			}
		}
		s := normalize(rs)
		if withSpecial {
			s = union(s, multiUpper)
		}
		return s
	})
}

// binaryProps maps every binary property name and alias V8 accepts to the
// function computing its set.
var binaryProps = map[string]func() charSet{}

func init() {
	idStart := func() charSet {
		return cached("IDS", func() charSet {
			return subtract(unions(cat("L"), cat("Nl"), prop("Other_ID_Start")),
				unions(prop("Pattern_Syntax"), prop("Pattern_White_Space")))
		})
	}
	idContinue := func() charSet {
		return cached("IDC", func() charSet {
			return subtract(unions(idStart(), cat("Mn"), cat("Mc"), cat("Nd"), cat("Pc"), prop("Other_ID_Continue")),
				unions(prop("Pattern_Syntax"), prop("Pattern_White_Space")))
		})
	}
	// XID_* exclude the characters whose NFKC form is not an identifier.
	xidStartOut := charSet{{0x037A, 0x037A}, {0x0E33, 0x0E33}, {0x0EB3, 0x0EB3}, {0x309B, 0x309C},
		{0xFC5E, 0xFC63}, {0xFDFA, 0xFDFB}, {0xFE70, 0xFE70}, {0xFE72, 0xFE72}, {0xFE74, 0xFE74},
		{0xFE76, 0xFE76}, {0xFE78, 0xFE78}, {0xFE7A, 0xFE7A}, {0xFE7C, 0xFE7C}, {0xFE7E, 0xFE7E},
		{0xFF9E, 0xFF9F}}
	xidContinueOut := charSet{{0x037A, 0x037A}, {0x309B, 0x309C}, {0xFC5E, 0xFC63}, {0xFDFA, 0xFDFB},
		{0xFE70, 0xFE70}, {0xFE72, 0xFE72}, {0xFE74, 0xFE74}, {0xFE76, 0xFE76}, {0xFE78, 0xFE78},
		{0xFE7A, 0xFE7A}, {0xFE7C, 0xFE7C}, {0xFE7E, 0xFE7E}}
	lower := func() charSet { return union(cat("Ll"), prop("Other_Lowercase")) }
	upper := func() charSet { return union(cat("Lu"), prop("Other_Uppercase")) }
	cwl := func() charSet { return caseChanging("CWL", unicode.ToLower, false) }
	cwu := func() charSet { return caseChanging("CWU", unicode.ToUpper, true) }
	cwt := func() charSet { return caseChanging("CWT", unicode.ToTitle, true) }
	grExt := func() charSet { return unions(cat("Me"), cat("Mn"), prop("Other_Grapheme_Extend")) }
	defs := map[string]func() charSet{
		"Alphabetic": func() charSet {
			return unions(cat("Lu"), cat("Ll"), cat("Lt"), cat("Lm"), cat("Lo"), cat("Nl"), prop("Other_Alphabetic"))
		},
		"ASCII_Hex_Digit": func() charSet { return prop("ASCII_Hex_Digit") },
		"Bidi_Control":    func() charSet { return prop("Bidi_Control") },
		"Bidi_Mirrored":   func() charSet { return generatedBinary["Bidi_Mirrored"] },
		"Case_Ignorable": func() charSet {
			// Word_Break MidLetter, MidNumLet and Single_Quote.
			wb := normalize([]rng{{0x27, 0x27}, {0x2E, 0x2E}, {0x3A, 0x3A}, {0xB7, 0xB7}, {0x387, 0x387},
				{0x55F, 0x55F}, {0x5F4, 0x5F4}, {0x2018, 0x2019}, {0x2024, 0x2024}, {0x2027, 0x2027},
				{0xFE13, 0xFE13}, {0xFE52, 0xFE52}, {0xFE55, 0xFE55}, {0xFF07, 0xFF07}, {0xFF0E, 0xFF0E},
				{0xFF1A, 0xFF1A}})
			return unions(cat("Mn"), cat("Me"), cat("Cf"), cat("Lm"), cat("Sk"), wb)
		},
		"Cased": func() charSet { return unions(lower(), upper(), cat("Lt")) },
		"Changes_When_Casefolded": func() charSet {
			// Simple folding goes to lowercase, except that Cherokee folds to
			// its uppercase letters; multi-character foldings change too.
			var rs []rng
			for _, cr := range unicode.CaseRanges {
				for c := rune(cr.Lo); c <= rune(cr.Hi); c++ {
					if unicode.ToLower(c) != c || unicode.ToLower(unicode.ToUpper(c)) != c {
						rs = append(rs, rng{c, c})
					}
				}
			}
			s := subtract(normalize(rs), span(0x13A0, 0x13F5))
			return unions(s, span(0x13F8, 0x13FD), span(0xAB70, 0xABBF), multiUpper)
		},
		"Changes_When_Casemapped":      func() charSet { return unions(cwl(), cwu(), cwt()) },
		"Changes_When_NFKC_Casefolded": func() charSet { return generatedBinary["Changes_When_NFKC_Casefolded"] },
		"Changes_When_Lowercased":      cwl,
		"Changes_When_Titlecased":      cwt,
		"Changes_When_Uppercased":      cwu,
		"Dash":                         func() charSet { return prop("Dash") },
		"Default_Ignorable_Code_Point": func() charSet {
			return subtract(unions(prop("Other_Default_Ignorable_Code_Point"), cat("Cf"), prop("Variation_Selector")),
				unions(prop("White_Space"), span(0xFFF9, 0xFFFB), span(0x13430, 0x1343F), prop("Prepended_Concatenation_Mark")))
		},
		"Deprecated":            func() charSet { return prop("Deprecated") },
		"Diacritic":             func() charSet { return prop("Diacritic") },
		"Emoji":                 func() charSet { return generatedBinary["Emoji"] },
		"Emoji_Component":       func() charSet { return generatedBinary["Emoji_Component"] },
		"Emoji_Modifier":        func() charSet { return generatedBinary["Emoji_Modifier"] },
		"Emoji_Modifier_Base":   func() charSet { return generatedBinary["Emoji_Modifier_Base"] },
		"Emoji_Presentation":    func() charSet { return generatedBinary["Emoji_Presentation"] },
		"Extended_Pictographic": func() charSet { return generatedBinary["Extended_Pictographic"] },
		"Extender":              func() charSet { return prop("Extender") },
		"Grapheme_Base": func() charSet {
			return subtract(complement(nil, maxCodePoint), unions(cat("Cc"), cat("Cf"), cat("Cs"), cat("Co"),
				complement(assigned(), maxCodePoint), cat("Zl"), cat("Zp"), grExt()))
		},
		"Grapheme_Extend":         grExt,
		"Hex_Digit":               func() charSet { return prop("Hex_Digit") },
		"ID_Continue":             idContinue,
		"ID_Start":                idStart,
		"Ideographic":             func() charSet { return prop("Ideographic") },
		"IDS_Binary_Operator":     func() charSet { return prop("IDS_Binary_Operator") },
		"IDS_Trinary_Operator":    func() charSet { return prop("IDS_Trinary_Operator") },
		"Join_Control":            func() charSet { return prop("Join_Control") },
		"Logical_Order_Exception": func() charSet { return prop("Logical_Order_Exception") },
		"Lowercase":               lower,
		"Math":                    func() charSet { return union(cat("Sm"), prop("Other_Math")) },
		"Noncharacter_Code_Point": func() charSet { return prop("Noncharacter_Code_Point") },
		"Pattern_Syntax":          func() charSet { return prop("Pattern_Syntax") },
		"Pattern_White_Space":     func() charSet { return prop("Pattern_White_Space") },
		"Quotation_Mark":          func() charSet { return prop("Quotation_Mark") },
		"Radical":                 func() charSet { return prop("Radical") },
		"Regional_Indicator":      func() charSet { return prop("Regional_Indicator") },
		"Sentence_Terminal":       func() charSet { return prop("Sentence_Terminal") },
		"Soft_Dotted":             func() charSet { return prop("Soft_Dotted") },
		"Terminal_Punctuation":    func() charSet { return prop("Terminal_Punctuation") },
		"Unified_Ideograph":       func() charSet { return prop("Unified_Ideograph") },
		"Uppercase":               upper,
		"Variation_Selector":      func() charSet { return prop("Variation_Selector") },
		"White_Space":             func() charSet { return prop("White_Space") },
		"XID_Continue":            func() charSet { return subtract(idContinue(), xidContinueOut) },
		"XID_Start":               func() charSet { return subtract(idStart(), xidStartOut) },
	}
	aliases := map[string][]string{
		"Alphabetic": {"Alpha"}, "ASCII_Hex_Digit": {"AHex"}, "Bidi_Control": {"Bidi_C"},
		"Bidi_Mirrored": {"Bidi_M"}, "Case_Ignorable": {"CI"}, "Changes_When_Casefolded": {"CWCF"},
		"Changes_When_Casemapped": {"CWCM"}, "Changes_When_NFKC_Casefolded": {"CWKCF"},
		"Changes_When_Lowercased": {"CWL"}, "Changes_When_Titlecased": {"CWT"},
		"Changes_When_Uppercased": {"CWU"}, "Default_Ignorable_Code_Point": {"DI"},
		"Deprecated": {"Dep"}, "Diacritic": {"Dia"}, "Emoji_Component": {"EComp"},
		"Emoji_Modifier": {"EMod"}, "Emoji_Modifier_Base": {"EBase"}, "Emoji_Presentation": {"EPres"},
		"Extended_Pictographic": {"ExtPict"}, "Extender": {"Ext"}, "Grapheme_Base": {"Gr_Base"},
		"Grapheme_Extend": {"Gr_Ext"}, "Hex_Digit": {"Hex"}, "ID_Continue": {"IDC"}, "ID_Start": {"IDS"},
		"Ideographic": {"Ideo"}, "IDS_Binary_Operator": {"IDSB"}, "IDS_Trinary_Operator": {"IDST"},
		"Join_Control": {"Join_C"}, "Logical_Order_Exception": {"LOE"}, "Lowercase": {"Lower"},
		"Noncharacter_Code_Point": {"NChar"}, "Pattern_Syntax": {"Pat_Syn"},
		"Pattern_White_Space": {"Pat_WS"}, "Quotation_Mark": {"QMark"}, "Regional_Indicator": {"RI"},
		"Sentence_Terminal": {"STerm"}, "Soft_Dotted": {"SD"}, "Terminal_Punctuation": {"Term"},
		"Unified_Ideograph": {"UIdeo"}, "Uppercase": {"Upper"}, "Variation_Selector": {"VS"},
		"White_Space": {"space", "WSpace"}, "XID_Continue": {"XIDC"}, "XID_Start": {"XIDS"},
	}
	for name, f := range defs {
		key, f := name, f
		g := func() charSet { return cached("bin:"+key, f) }
		binaryProps[name] = g
		for _, a := range aliases[name] {
			binaryProps[a] = g
		}
	}
}

// stringProps are the properties of strings, valid only with /v. We have no
// data for them: Compile reports them as unsupported.
var stringProps = map[string]bool{
	"Basic_Emoji": true, "Emoji_Keycap_Sequence": true, "RGI_Emoji_Modifier_Sequence": true,
	"RGI_Emoji_Flag_Sequence": true, "RGI_Emoji_Tag_Sequence": true, "RGI_Emoji_ZWJ_Sequence": true,
	"RGI_Emoji": true,
}

// propertyResult tells lookupProperty's caller what it found.
type propertyResult int

const (
	propInvalid propertyResult = iota
	propOK
	propOfStrings // valid in V8 with /v, but not supported here
)

// goTable returns the name of the Go unicode table that is exactly the set
// of a General_Category or Script value, for regexp2's own \p{...} (which
// looks characters up by binary search, where a long range list is scanned
// linearly), or "" when there is none.
func goTable(value string, isScript bool) string {
	if isScript {
		if name, ok := scriptName(value); ok && name != "Unknown" {
			return name
		}
		return ""
	}
	short := gcAliases[value]
	switch short {
	case "", "C", "Cn", "LC":
		return ""
	}
	if _, ok := unicode.Categories[short]; !ok {
		return ""
	}
	return short
}

// lookupProperty resolves \p{name} (value == "" and !hasValue) or
// \p{name=value}, following V8's AddPropertyClassRange. table is the name
// of the Go unicode table with the same set, if any.
func lookupProperty(name, value string, hasValue, unicodeSets bool) (s charSet, res propertyResult, table string) {
	s, res = lookupPropertySet(name, value, hasValue, unicodeSets)
	if res != propOK {
		return s, res, ""
	}
	switch {
	case !hasValue:
		table = goTable(name, false)
	case name == "General_Category" || name == "gc":
		table = goTable(value, false)
	case name == "Script" || name == "sc":
		table = goTable(value, true)
	}
	return s, res, table
}

func lookupPropertySet(name, value string, hasValue, unicodeSets bool) (charSet, propertyResult) {
	if !hasValue {
		if s, ok := generalCategory(name); ok {
			return s, propOK
		}
		switch name {
		case "Any":
			return span(0, maxCodePoint), propOK
		case "ASCII":
			return span(0, 0x7F), propOK
		case "Assigned":
			s, _ := generalCategory("Cn")
			return complement(s, maxCodePoint), propOK
		}
		if f, ok := binaryProps[name]; ok {
			return f(), propOK
		}
		if unicodeSets && stringProps[name] {
			return nil, propOfStrings
		}
		return nil, propInvalid
	}
	switch name {
	case "General_Category", "gc":
		if s, ok := generalCategory(value); ok {
			return s, propOK
		}
	case "Script", "sc":
		if s, ok := script(value, false); ok {
			return s, propOK
		}
	case "Script_Extensions", "scx":
		if s, ok := script(value, true); ok {
			return s, propOK
		}
	}
	return nil, propInvalid
}

// isIdentifierStart and isIdentifierPart are JavaScript's IdentifierStart
// and IdentifierPart characters, for group names.
func isIdentifierStart(c rune) bool {
	return c == '$' || c == '_' || binaryProps["ID_Start"]().has(c)
}

func isIdentifierPart(c rune) bool {
	return c == '$' || c == 0x200C || c == 0x200D || binaryProps["ID_Continue"]().has(c)
}
