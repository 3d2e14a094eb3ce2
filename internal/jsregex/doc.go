// Package jsregex compiles and runs JavaScript regular expressions with
// JavaScript's semantics (ECMAScript 2024 plus the Annex B leniencies, the /v
// flag, duplicate named groups and modifiers), matching V8's results and
// error messages, on top of github.com/dlclark/regexp2.
//
// # How
//
// regexp2 is a port of .NET's backtracking engine: it has backreferences,
// lookahead and lookbehind (of any length), which Go's regexp lacks, and its
// ECMAScript option makes a backreference to a group that did not
// participate match the empty string. Its JavaScript dialect is otherwise
// .NET's, so this package does not hand it JavaScript source. It parses the
// pattern itself (parser.go follows V8's parser, so invalid patterns get
// V8's messages) and writes an equivalent regexp2 pattern in a small, fully
// explicit subset of regexp2's syntax (emit.go): character classes as range
// lists, ^ $ \b \B as lookarounds on JavaScript's line terminators and word
// characters, groups by explicit number.
//
// The input is handed to regexp2 as one rune per UTF-16 code unit, or per
// code point with /u and /v (lone surrogates stay runes of their own), and
// positions are mapped back to UTF-16 indexes. Under /i the input and the
// pattern are both canonicalized with the spec's Canonicalize (casefold.go),
// so that plain case-sensitive matching gives JavaScript's case-insensitive
// results, backreferences and \b included.
//
// Two JavaScript rules that regexp2 does not have are written into the
// translation: captures inside a quantified group are reset at the start of
// every iteration (with .NET balancing groups), and an optional iteration
// that matches the empty string is rejected (with a helper group that
// records where the iteration started). See emit.go.
//
// # Use
//
// Compile takes the pattern (the text between the slashes, or the
// constructor's first argument) and the flags. Regexp.Exec matches a UTF-16
// string from lastIndex and returns the capture spans as UTF-16 indexes;
// the caller keeps lastIndex, as RegExpBuiltinExec's callers do. A deadline
// bounds every match (regexp2's MatchTimeout); a match that runs past it
// fails with ErrTimeout.
//
// The known differences from V8 are listed, with their reasons, in
// testdata/skip.jsonl; the reference table testdata/cases.jsonl is made by
// node (testdata/gen.js). Property escapes (\p{...}) use Go's Unicode tables,
// which are older than V8's: characters assigned in the newest Unicode
// versions may differ. Properties of strings (\p{RGI_Emoji} and the like,
// /v only) are not supported: Compile reports them with an *Error whose
// Unsupported field is set.
package jsregex
