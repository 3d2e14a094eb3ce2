package web

// The WHATWG URL parser (https://url.spec.whatwg.org/#concept-basic-url-parser),
// state by state as the standard writes it, over code points. It knows
// nothing about JavaScript values: url.go binds it to URL objects.
//
// Input is Go text in which every lone surrogate has already become
// U+FFFD (a USVString); the serialized URL is always ASCII.

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// urlRecord is a parsed URL. host is nil for a null host; port is -1
// for a null port; an opaque path is path[0] with opaque set.
type urlRecord struct {
	scheme   string
	username string
	password string
	host     *string
	port     int
	path     []string
	opaque   bool
	query    *string
	fragment *string
}

func (u *urlRecord) clone() *urlRecord {
	c := *u
	c.path = append([]string(nil), u.path...)
	return &c
}

// parser states.
type urlState uint8

const (
	stNone urlState = iota
	stSchemeStart
	stScheme
	stNoScheme
	stSpecialRelativeOrAuthority
	stPathOrAuthority
	stRelative
	stRelativeSlash
	stSpecialAuthoritySlashes
	stSpecialAuthorityIgnoreSlashes
	stAuthority
	stHost
	stHostname
	stPort
	stFile
	stFileSlash
	stFileHost
	stPathStart
	stPath
	stOpaquePath
	stQuery
	stFragment
)

const eof = -1

var specialPorts = map[string]int{"ftp": 21, "file": -1, "http": 80, "https": 443, "ws": 80, "wss": 443}

func isSpecialScheme(s string) bool { _, ok := specialPorts[s]; return ok }

func defaultPort(scheme string) int {
	if p, ok := specialPorts[scheme]; ok {
		return p
	}
	return -1
}

func (u *urlRecord) special() bool { return isSpecialScheme(u.scheme) }

func (u *urlRecord) hasCredentials() bool { return u.username != "" || u.password != "" }

func strp(s string) *string { return &s }

func isASCIIAlpha(c rune) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isASCIIDigit(c rune) bool { return c >= '0' && c <= '9' }

func isASCIIHex(c rune) bool {
	return isASCIIDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func toLowerASCII(c rune) rune {
	if c >= 'A' && c <= 'Z' {
		return c + 32
	}
	return c
}

// isWindowsDriveLetter: an ASCII alpha followed by ':' or '|'.
func isWindowsDriveLetter(s []rune) bool {
	return len(s) == 2 && isASCIIAlpha(s[0]) && (s[1] == ':' || s[1] == '|')
}

func isNormalizedWindowsDriveLetter(s string) bool {
	return len(s) == 2 && isASCIIAlpha(rune(s[0])) && s[1] == ':'
}

// startsWithWindowsDriveLetter checks the code points from i on.
func startsWithWindowsDriveLetter(in []rune, i int) bool {
	if len(in)-i < 2 || !isWindowsDriveLetter(in[i:i+2]) {
		return false
	}
	if len(in)-i == 2 {
		return true
	}
	switch in[i+2] {
	case '/', '\\', '?', '#':
		return true
	}
	return false
}

func isSingleDot(s string) bool { return s == "." || strings.EqualFold(s, "%2e") }

func isDoubleDot(s string) bool {
	switch strings.ToLower(s) {
	case "..", ".%2e", "%2e.", "%2e%2e":
		return true
	}
	return false
}

func (u *urlRecord) shortenPath() {
	if u.scheme == "file" && len(u.path) == 1 && isNormalizedWindowsDriveLetter(u.path[0]) {
		return
	}
	if len(u.path) > 0 {
		u.path = u.path[:len(u.path)-1]
	}
}

// parseURL is the basic URL parser without a state override: it returns
// nil on failure.
func parseURL(input string, base *urlRecord) *urlRecord { return parseURLTicked(input, base, nil) }

// parseURLTicked is parseURL calling tick (when not nil) every
// urlTickChars characters, so that a run can stop the parse of a
// 16 M-character URL at its deadline.
func parseURLTicked(input string, base *urlRecord, tick func(n int)) *urlRecord {
	u := &urlRecord{port: -1}
	input = strings.TrimFunc(input, func(c rune) bool { return c <= 0x20 })
	if !basicParse(input, base, u, stNone, tick) {
		return nil
	}
	return u
}

// urlTickChars is how many characters basicParse reads between ticks.
const urlTickChars = 4096

// runesTicked is []rune(s), ticking as it goes: converting a 16 M-
// character input in one call takes long enough, on a machine slow to
// give it 64 MB, to hold a run far past its deadline.
func runesTicked(s string, tick func(n int)) []rune {
	if tick == nil || len(s) <= urlTickChars {
		return []rune(s)
	}
	out := make([]rune, 0, utf8.RuneCountInString(s))
	for _, c := range s {
		if len(out)%urlTickChars == 0 {
			tick(urlTickChars)
		}
		out = append(out, c)
	}
	return out
}

// basicParse runs the parser over input into u, from state override (or
// from the start when override is stNone). It reports false on failure;
// with an override, returning early without change is success.
func basicParse(input string, base *urlRecord, u *urlRecord, override urlState, tick func(n int)) bool {
	if strings.ContainsAny(input, "\t\n\r") {
		input = strings.Map(func(c rune) rune {
			if c == '\t' || c == '\n' || c == '\r' {
				return -1
			}
			return c
		}, input)
	}
	in := runesTicked(input, tick)
	state := override
	if state == stNone {
		state = stSchemeStart
	}
	var buf []rune
	atSignSeen, insideBrackets, passwordTokenSeen := false, false, false
	for p := 0; ; p++ {
		if tick != nil && p%urlTickChars == 0 {
			tick(urlTickChars)
		}
		c := rune(eof)
		if p < len(in) {
			c = in[p]
		} else if p > len(in) {
			// Only reachable after a pointer decrease at EOF has been
			// consumed; the loop ends once EOF is processed.
			return true
		}
		remainingStarts := func(s string) bool {
			r := []rune(s)
			if p+1+len(r) > len(in) {
				return false
			}
			for i, x := range r {
				if in[p+1+i] != x {
					return false
				}
			}
			return true
		}
		switch state {
		case stSchemeStart:
			switch {
			case isASCIIAlpha(c):
				buf = append(buf, toLowerASCII(c))
				state = stScheme
			case override == stNone:
				state = stNoScheme
				p--
			default:
				return false
			}
		case stScheme:
			switch {
			case isASCIIAlpha(c) || isASCIIDigit(c) || c == '+' || c == '-' || c == '.':
				buf = append(buf, toLowerASCII(c))
			case c == ':':
				scheme := string(buf)
				if override != stNone {
					if u.special() != isSpecialScheme(scheme) {
						return true
					}
					if (u.hasCredentials() || u.port >= 0) && scheme == "file" {
						return true
					}
					if u.scheme == "file" && u.host != nil && *u.host == "" {
						return true
					}
				}
				u.scheme = scheme
				if override != stNone {
					if u.port == defaultPort(u.scheme) {
						u.port = -1
					}
					return true
				}
				buf = buf[:0]
				switch {
				case u.scheme == "file":
					state = stFile
				case u.special() && base != nil && base.scheme == u.scheme:
					state = stSpecialRelativeOrAuthority
				case u.special():
					state = stSpecialAuthoritySlashes
				case remainingStarts("/"):
					state = stPathOrAuthority
					p++
				default:
					u.path = []string{""}
					u.opaque = true
					state = stOpaquePath
				}
			case override == stNone:
				buf = buf[:0]
				state = stNoScheme
				p = -1
			default:
				return false
			}
		case stNoScheme:
			switch {
			case base == nil || base.opaque && c != '#':
				return false
			case base.opaque && c == '#':
				u.scheme = base.scheme
				u.path = append([]string(nil), base.path...)
				u.opaque = true
				u.query = base.query
				u.fragment = strp("")
				state = stFragment
			case base.scheme != "file":
				state = stRelative
				p--
			default:
				state = stFile
				p--
			}
		case stSpecialRelativeOrAuthority:
			if c == '/' && remainingStarts("/") {
				state = stSpecialAuthorityIgnoreSlashes
				p++
			} else {
				state = stRelative
				p--
			}
		case stPathOrAuthority:
			if c == '/' {
				state = stAuthority
			} else {
				state = stPath
				p--
			}
		case stRelative:
			u.scheme = base.scheme
			switch {
			case c == '/':
				state = stRelativeSlash
			case u.special() && c == '\\':
				state = stRelativeSlash
			default:
				u.username, u.password, u.host, u.port = base.username, base.password, base.host, base.port
				u.path = append([]string(nil), base.path...)
				u.query = base.query
				switch c {
				case '?':
					u.query = strp("")
					state = stQuery
				case '#':
					u.fragment = strp("")
					state = stFragment
				case eof:
				default:
					u.query = nil
					u.shortenPath()
					state = stPath
					p--
				}
			}
		case stRelativeSlash:
			switch {
			case u.special() && (c == '/' || c == '\\'):
				state = stSpecialAuthorityIgnoreSlashes
			case c == '/':
				state = stAuthority
			default:
				u.username, u.password, u.host, u.port = base.username, base.password, base.host, base.port
				state = stPath
				p--
			}
		case stSpecialAuthoritySlashes:
			if c == '/' && remainingStarts("/") {
				state = stSpecialAuthorityIgnoreSlashes
				p++
			} else {
				state = stSpecialAuthorityIgnoreSlashes
				p--
			}
		case stSpecialAuthorityIgnoreSlashes:
			if c != '/' && c != '\\' {
				state = stAuthority
				p--
			}
		case stAuthority:
			switch {
			case c == '@':
				if atSignSeen {
					buf = append([]rune("%40"), buf...)
				}
				atSignSeen = true
				var user, pass strings.Builder
				user.WriteString(u.username)
				pass.WriteString(u.password)
				for _, cp := range buf {
					if cp == ':' && !passwordTokenSeen {
						passwordTokenSeen = true
						continue
					}
					if passwordTokenSeen {
						percentEncodeRune(&pass, cp, userinfoSet)
					} else {
						percentEncodeRune(&user, cp, userinfoSet)
					}
				}
				u.username, u.password = user.String(), pass.String()
				buf = buf[:0]
			case c == eof || c == '/' || c == '?' || c == '#' || u.special() && c == '\\':
				if atSignSeen && len(buf) == 0 {
					return false
				}
				p -= len(buf) + 1
				buf = buf[:0]
				state = stHost
			default:
				buf = append(buf, c)
			}
		case stHost, stHostname:
			switch {
			case override != stNone && u.scheme == "file":
				p--
				state = stFileHost
			case c == ':' && !insideBrackets:
				if len(buf) == 0 {
					return false
				}
				if override == stHostname {
					return false
				}
				h, ok := parseHost(string(buf), !u.special())
				if !ok {
					return false
				}
				u.host = &h
				buf = buf[:0]
				state = stPort
			case c == eof || c == '/' || c == '?' || c == '#' || u.special() && c == '\\':
				p--
				if u.special() && len(buf) == 0 {
					return false
				}
				if override != stNone && len(buf) == 0 && (u.hasCredentials() || u.port >= 0) {
					return false
				}
				h, ok := parseHost(string(buf), !u.special())
				if !ok {
					return false
				}
				u.host = &h
				buf = buf[:0]
				state = stPathStart
				if override != stNone {
					return true
				}
			default:
				if c == '[' {
					insideBrackets = true
				} else if c == ']' {
					insideBrackets = false
				}
				buf = append(buf, c)
			}
		case stPort:
			switch {
			case isASCIIDigit(c):
				buf = append(buf, c)
			case c == eof || c == '/' || c == '?' || c == '#' || u.special() && c == '\\' || override != stNone:
				if len(buf) > 0 {
					port := 0
					for _, d := range buf {
						port = port*10 + int(d-'0')
						if port > 65535 {
							return false
						}
					}
					if port == defaultPort(u.scheme) {
						u.port = -1
					} else {
						u.port = port
					}
					buf = buf[:0]
				}
				if override != stNone {
					return true
				}
				state = stPathStart
				p--
			default:
				return false
			}
		case stFile:
			u.scheme = "file"
			u.host = strp("")
			switch {
			case c == '/' || c == '\\':
				state = stFileSlash
			case base != nil && base.scheme == "file":
				u.host = base.host
				u.path = append([]string(nil), base.path...)
				u.query = base.query
				switch c {
				case '?':
					u.query = strp("")
					state = stQuery
				case '#':
					u.fragment = strp("")
					state = stFragment
				case eof:
				default:
					u.query = nil
					if !startsWithWindowsDriveLetter(in, p) {
						u.shortenPath()
					} else {
						u.path = nil
					}
					state = stPath
					p--
				}
			default:
				state = stPath
				p--
			}
		case stFileSlash:
			if c == '/' || c == '\\' {
				state = stFileHost
			} else {
				if base != nil && base.scheme == "file" {
					u.host = base.host
					if !startsWithWindowsDriveLetter(in, p) && len(base.path) > 0 && isNormalizedWindowsDriveLetter(base.path[0]) {
						u.path = append(u.path, base.path[0])
					}
				}
				state = stPath
				p--
			}
		case stFileHost:
			switch c {
			case eof, '/', '\\', '?', '#':
				p--
				switch {
				case override == stNone && isWindowsDriveLetter(buf):
					state = stPath
				case len(buf) == 0:
					u.host = strp("")
					if override != stNone {
						return true
					}
					state = stPathStart
				default:
					h, ok := parseHost(string(buf), !u.special())
					if !ok {
						return false
					}
					if h == "localhost" {
						h = ""
					}
					u.host = &h
					if override != stNone {
						return true
					}
					buf = buf[:0]
					state = stPathStart
				}
			default:
				buf = append(buf, c)
			}
		case stPathStart:
			switch {
			case u.special():
				state = stPath
				if c != '/' && c != '\\' {
					p--
				}
			case override == stNone && c == '?':
				u.query = strp("")
				state = stQuery
			case override == stNone && c == '#':
				u.fragment = strp("")
				state = stFragment
			case c != eof:
				state = stPath
				if c != '/' {
					p--
				}
			case override != stNone && u.host == nil:
				u.path = append(u.path, "")
			}
		case stPath:
			if c == eof || c == '/' || u.special() && c == '\\' || override == stNone && (c == '?' || c == '#') {
				seg := string(buf)
				slash := c == '/' || u.special() && c == '\\'
				switch {
				case isDoubleDot(seg):
					u.shortenPath()
					if !slash {
						u.path = append(u.path, "")
					}
				case isSingleDot(seg) && !slash:
					u.path = append(u.path, "")
				case !isSingleDot(seg):
					if u.scheme == "file" && len(u.path) == 0 && isWindowsDriveLetter(buf) {
						seg = string(buf[0]) + ":"
					}
					u.path = append(u.path, seg)
				}
				buf = buf[:0]
				if c == '?' {
					u.query = strp("")
					state = stQuery
				}
				if c == '#' {
					u.fragment = strp("")
					state = stFragment
				}
			} else {
				buf = appendEncoded(buf, c, pathSet)
			}
		case stOpaquePath:
			// The whole opaque path at once: appending code point by
			// code point to a string would be quadratic.
			var b strings.Builder
			b.WriteString(u.path[0])
			for ; p < len(in) && in[p] != '?' && in[p] != '#'; p++ {
				if in[p] == ' ' {
					if p+1 < len(in) && (in[p+1] == '?' || in[p+1] == '#') {
						b.WriteString("%20")
					} else {
						b.WriteByte(' ')
					}
					continue
				}
				percentEncodeRune(&b, in[p], c0ControlSet)
			}
			u.path[0] = b.String()
			if p >= len(in) {
				return true
			}
			if in[p] == '?' {
				u.query = strp("")
				state = stQuery
			} else {
				u.fragment = strp("")
				state = stFragment
			}
		case stQuery:
			if override == stNone && c == '#' || c == eof {
				set := querySet
				if u.special() {
					set = specialQuerySet
				}
				var b strings.Builder
				if u.query != nil {
					b.WriteString(*u.query)
				}
				for _, cp := range buf {
					percentEncodeRune(&b, cp, set)
				}
				u.query = strp(b.String())
				buf = buf[:0]
				if c == '#' {
					u.fragment = strp("")
					state = stFragment
				}
			} else {
				buf = append(buf, c)
			}
		case stFragment:
			// The fragment runs to the end of the input.
			var b strings.Builder
			if u.fragment != nil {
				b.WriteString(*u.fragment)
			}
			for ; p < len(in); p++ {
				percentEncodeRune(&b, in[p], fragmentSet)
			}
			u.fragment = strp(b.String())
			return true
		}
		if c == eof && p >= len(in) {
			return true
		}
	}
}

// appendEncoded appends c, percent-encoded if it is in set, to a rune
// buffer (the path state keeps its segment as code points).
func appendEncoded(buf []rune, c rune, set *[128]bool) []rune {
	if c >= 0 && c < 0x80 && !set[c] {
		return append(buf, c)
	}
	var b strings.Builder
	percentEncodeRune(&b, c, set)
	return append(buf, []rune(b.String())...)
}

// serialize is the URL serializer; excludeFragment leaves the fragment out.
func (u *urlRecord) serialize(excludeFragment bool) string {
	var b strings.Builder
	b.WriteString(u.scheme)
	b.WriteByte(':')
	if u.host != nil {
		b.WriteString("//")
		if u.hasCredentials() {
			b.WriteString(u.username)
			if u.password != "" {
				b.WriteByte(':')
				b.WriteString(u.password)
			}
			b.WriteByte('@')
		}
		b.WriteString(*u.host)
		if u.port >= 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(u.port))
		}
	}
	if u.host == nil && !u.opaque && len(u.path) > 1 && u.path[0] == "" {
		b.WriteString("/.")
	}
	b.WriteString(u.pathString())
	if u.query != nil {
		b.WriteByte('?')
		b.WriteString(*u.query)
	}
	if !excludeFragment && u.fragment != nil {
		b.WriteByte('#')
		b.WriteString(*u.fragment)
	}
	return b.String()
}

// pathString is the URL path serializer.
func (u *urlRecord) pathString() string {
	if u.opaque {
		return u.path[0]
	}
	var b strings.Builder
	for _, s := range u.path {
		b.WriteByte('/')
		b.WriteString(s)
	}
	return b.String()
}

// origin serializes the URL's origin ("null" for an opaque origin).
func (u *urlRecord) origin() string {
	switch u.scheme {
	case "blob":
		if u.opaque || len(u.path) > 0 {
			inner := parseURL(u.pathString(), nil)
			if inner != nil && (inner.scheme == "http" || inner.scheme == "https") {
				return inner.origin()
			}
		}
		return "null"
	case "ftp", "http", "https", "ws", "wss":
		s := u.scheme + "://" + *u.host
		if u.port >= 0 {
			s += ":" + strconv.Itoa(u.port)
		}
		return s
	}
	return "null"
}
