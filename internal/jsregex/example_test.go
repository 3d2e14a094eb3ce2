package jsregex_test

import (
	"fmt"
	"time"
	"unicode/utf16"

	"github.com/go-codemode/codemode/internal/jsregex"
)

func Example() {
	re, err := jsregex.Compile(`(?<year>\d{4})-(?<month>\d\d)`, "g")
	if err != nil {
		panic(err)
	}
	text := utf16.Encode([]rune("😀 from 2023-11 to 2024-02"))
	in := jsregex.NewInput(text)
	deadline := time.Now().Add(time.Second)
	for lastIndex := 0; ; {
		m, err := re.ExecInput(in, lastIndex, deadline)
		if err != nil || m == nil {
			break
		}
		// Indexes are UTF-16 code units, as in JavaScript.
		fmt.Println(m.Index(), string(utf16.Decode(text[m.Index():m.End()])))
		for _, g := range m.NamedGroups() {
			fmt.Printf("  %s = %s\n", g.Name, string(utf16.Decode(text[g.Start:g.End])))
		}
		lastIndex = m.End()
	}

	_, err = jsregex.Compile(`(?<year>\d{4}`, "")
	fmt.Println(err)
	// Output:
	// 8 2023-11
	//   year = 2023
	//   month = 11
	// 19 2024-02
	//   year = 2024
	//   month = 02
	// Invalid regular expression: /(?<year>\d{4}/: Unterminated group
}
