// Package array is the array area of codemode's standard library.
package array

import "github.com/go-codemode/codemode/value"

// Install adds this area to a library.
func Install(l *value.Library) {}
