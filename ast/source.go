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
type Location struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

func (l Location) String() string { return fmt.Sprintf("line %d, col %d", l.Line, l.Column) }

// Source is the text a program came from. Text is kept verbatim, even when
// Normalize decided that only Text[Start:End] is the program (a markdown
// fence or an arrow-function wrapper was dropped), so that every Pos still
// points into what the model sent.
type Source struct {
	Text       string
	Start, End int // the byte range that was parsed as the program body

	lines []int // byte offset of each line start, built on first use
}

// NewSource returns a Source whose whole text is the program.
func NewSource(text string) *Source {
	return &Source{Text: text, Start: 0, End: len(text)}
}

// Location converts a byte offset into a line and column.
func (s *Source) Location(p Pos) Location {
	if p < 0 {
		return Location{}
	}
	off := int(p)
	if off > len(s.Text) {
		off = len(s.Text)
	}
	if s.lines == nil {
		s.lines = lineStarts(s.Text)
	}
	i := sort.SearchInts(s.lines, off+1) - 1
	start := s.lines[i]
	col := 1
	for _, r := range s.Text[start:off] {
		if r >= 0x10000 {
			col += 2
		} else {
			col++
		}
	}
	return Location{Line: i + 1, Column: col}
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

// Error is a syntax or early error: what is wrong and where.
type Error struct {
	Pos      Pos
	Location Location
	Msg      string
}

// Error formats the message with its position the way runtime diagnostics
// do: "Unexpected token ')' (line 1, col 5)".
func (e *Error) Error() string {
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
	loc := s.Location(p)
	start := s.lines[loc.Line-1]
	end := len(s.Text)
	if loc.Line < len(s.lines) {
		end = s.lines[loc.Line]
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
