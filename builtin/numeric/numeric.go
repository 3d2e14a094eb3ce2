// Package numeric is the numeric area of codemode's standard library.
package numeric

import "github.com/go-codemode/codemode/value"

// Install adds this area to a library.
func Install(l *value.Library) {}
