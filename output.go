package codemode

import (
	"fmt"
	"unicode/utf8"
)

// boundOutput applies MaxOutputBytes to a Result as the reference does
// (section 3.6): the value becomes a marked, cut string when its JSON is
// too long; warnings have a budget of max of their own; logs get what
// the value left. Failures only have their logs bounded; an error message
// is never cut.
func boundOutput(res *Result, max int) {
	valueBytes := 0
	if res.OK {
		text := string(res.Value)
		if text == "" {
			text = "null"
		}
		n := len(text)
		if res.valueSize > n {
			n = res.valueSize // the copy kept only the first bytes
		}
		if n > max {
			cut := truncateUTF8(text, max)
			size := fmt.Sprint(n)
			if res.sizeAtLeast {
				size = "more than " + size
			}
			marked := fmt.Sprintf("%s [result truncated: %s bytes exceeds the %d-byte output limit; return a smaller value]", cut, size, max)
			res.Value, _ = marshalNoEscape(marked)
			res.Truncated = true
			valueBytes = max
			res.valueSize, res.sizeAtLeast = 0, false
		} else {
			valueBytes = n
		}
		res.Warnings = boundWarnings(res, max)
	}
	budget := max - valueBytes
	used := 0
	for i, line := range res.Logs {
		cost := len(line) + 1
		if used+cost > budget {
			total := len(res.Logs)
			res.Logs = append(res.Logs[:i:i], fmt.Sprintf("[logs truncated: showing %d of %d lines]", i, total))
			res.Truncated = true
			break
		}
		used += cost
	}
}

// boundWarnings keeps the warnings that fit in max bytes, in order, and
// says how many were left out.
func boundWarnings(res *Result, max int) []Diagnostic {
	used := 0
	for i, w := range res.Warnings {
		data, err := marshalNoEscape(warning{Kind: w.Kind, Message: w.Message})
		if err != nil {
			data = []byte(w.Message)
		}
		cost := len(data) + 1
		if used+cost > max {
			res.Truncated = true
			omitted := len(res.Warnings) - i
			return append(res.Warnings[:i:i], Diagnostic{Kind: Truncated, Message: fmt.Sprintf("%d additional warnings omitted by the output limit.", omitted)})
		}
		used += cost
	}
	return res.Warnings
}

// truncateUTF8 cuts s to at most n bytes without leaving half a
// character at the end.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if r != utf8.RuneError || size > 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s
}
