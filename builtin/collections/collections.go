// Package collections is the collections area of codemode's standard library.
package collections

import "github.com/go-codemode/codemode/value"

// Install adds this area to a library.
func Install(l *value.Library) {}
