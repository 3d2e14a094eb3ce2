// Package text is the text area of codemode's standard library.
package text

import "github.com/go-codemode/codemode/value"

// Install adds this area to a library.
func Install(l *value.Library) {}
