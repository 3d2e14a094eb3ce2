// Package web is the web area of codemode's standard library.
package web

import "github.com/go-codemode/codemode/value"

// Install adds this area to a library.
func Install(l *value.Library) {}
