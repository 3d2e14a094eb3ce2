package ast

import (
	"fmt"
	"sort"
)

// Pos is a byte offset into the text a model sent (Source.Text). Every node
// records the Pos where it starts; line and column are derived only when a
// diagnostic needs them, so parsing never pays for them.
type Pos int32

// NoPos marks a node that has no place in the source (a synthetic node).
const NoPos Pos = -1

// Location is a 1-based line and column. Columns count UTF-16 code units, as
// JavaScript tools (acorn, V8, browsers) do: "😀" is two columns wide.
//
// In a program made by Link, Module names the module a position is in, and
// Line and Column are then counted in that module's own text; Module is
// empty for the program itself.
type Location struct {
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Module string `json:"module,omitempty"`
}

func (l Location) String() string {
	if l.Module != "" {
		return fmt.Sprintf("line %d, col %d of module %q", l.Line, l.Column, l.Module)
	}
	return fmt.Sprintf("line %d, col %d", l.Line, l.Column)
}

// Source is the text a program came from. Text is kept verbatim, even when
// Normalize decided that only Text[Start:End] is the program (a markdown
// fence or an arrow-function wrapper was dropped), so that every Pos still
// points into what the model sent.
//
// The Source of a program made by Link holds more than one text: the
// program's, then each module it reached, each on a line of its own (see
// Units). Positions in the program's part are exactly what they would be
// without modules.
type Source struct {
	Text       string
	Start, End int // the byte range that was parsed as the program body

	lines []int // byte offset of each line start, built on first use

	// blanks are byte ranges of Text[Start:End] that the parser reads as
	// spaces (line breaks kept): the head and tail of the function that
	// wraps a program after its imports (see Normalize).
	blanks [][2]int

	// units are the modules' texts in Text, by Start (see Link).
	units []Unit
}

// Unit is one module's text inside the Source of a linked program.
type Unit struct {
	Module     string // its name in the module map
	Kind       string // "js", "cjs", "json" or "text"
	Start, End int    // its byte range in Source.Text
}

// Units lists the modules whose texts follow the program's in Text, in
// the order they run. It is empty for a program without modules.
func (s *Source) Units() []Unit { return append([]Unit(nil), s.units...) }

// unitAt returns the module unit that holds offset off, or nil when off is
// in the program's own text.
func (s *Source) unitAt(off int) *Unit {
	if len(s.units) == 0 || off < s.units[0].Start {
		return nil
	}
	i := sort.Search(len(s.units), func(i int) bool { return s.units[i].Start > off }) - 1
	return &s.units[i]
}

// NewSource returns a Source whose whole text is the program.
func NewSource(text string) *Source {
	return &Source{Text: text, Start: 0, End: len(text)}
}

// Location converts a byte offset into a line and column (in a linked
// program, of the module the offset is in).
func (s *Source) Location(p Pos) Location {
	if p < 0 {
		return Location{}
	}
	off := int(p)
	if off > len(s.Text) {
		off = len(s.Text)
	}
	i := s.lineIndex(off)
	start := s.lines[i]
	col := 1
	for _, r := range s.Text[start:off] {
		if r >= 0x10000 {
			col += 2
		} else {
			col++
		}
	}
	loc := Location{Line: i + 1, Column: col}
	if u := s.unitAt(off); u != nil {
		// Every unit starts a line (a line break comes before it).
		loc.Line -= sort.SearchInts(s.lines, u.Start)
		loc.Module = u.Module
	}
	return loc
}

// lineIndex returns the 0-based index in s.lines of the line that holds
// offset off (0 <= off <= len(s.Text)).
func (s *Source) lineIndex(off int) int {
	if s.lines == nil {
		s.lines = lineStarts(s.Text)
	}
	return sort.SearchInts(s.lines, off+1) - 1
}

// lineStarts finds where each line begins. JavaScript ends a line at LF,
// CR, CRLF, U+2028 and U+2029.
func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\n':
			starts = append(starts, i+1)
		case c == '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		case c == 0xE2 && i+2 < len(text) && text[i+1] == 0x80 && (text[i+2] == 0xA8 || text[i+2] == 0xA9):
			i += 2
			starts = append(starts, i+1)
		}
	}
	return starts
}

// Error is a syntax or early error: what is wrong and where. For an error
// in a module of a module map (see Link), Location.Module names the module,
// Pos is an offset into that module's text and Location counts lines and
// columns in it; an error about the module map itself may have no position
// (Pos is NoPos and Location.Line 0).
type Error struct {
	Pos      Pos
	Location Location
	Msg      string
}

// Error formats the message with its position the way runtime diagnostics
// do: "Unexpected token ')' (line 1, col 5)".
func (e *Error) Error() string {
	if e.Location.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("%s (%s)", e.Msg, e.Location)
}

// Snippet returns the source line that holds p with a caret under p's
// column, for diagnostics shown to people:
//
//	let x = ;
//	        ^
func (s *Source) Snippet(p Pos) string {
	if p < 0 || int(p) > len(s.Text) {
		return ""
	}
	i := s.lineIndex(int(p))
	start := s.lines[i]
	end := len(s.Text)
	if i+1 < len(s.lines) {
		end = s.lines[i+1]
	}
	line := s.Text[start:end]
	for len(line) > 0 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r') {
		line = line[:len(line)-1]
	}
	// The caret lines up under p by copying the line's tabs and padding the
	// rest, one space per character.
	var pad []byte
	for _, r := range s.Text[start:int(p)] {
		if r == '\t' {
			pad = append(pad, '\t')
		} else {
			pad = append(pad, ' ')
		}
	}
	return line + "\n" + string(pad) + "^"
}
