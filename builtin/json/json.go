// Package json is the json area of codemode's standard library.
package json

import "github.com/go-codemode/codemode/value"

// Install adds this area to a library.
func Install(l *value.Library) {}
