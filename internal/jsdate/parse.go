package jsdate

import (
	"math"
	"unicode/utf8"
)

// Parse is §21.4.3.2 Date.parse(string): the time value the string
// denotes, or NaN. It accepts exactly what V8's date parser accepts (node
// 26, with local time being UTC):
//
//   - The ECMAScript date time string format (§21.4.1.32):
//     YYYY, YYYY-MM or YYYY-MM-DD, optionally followed by THH:mm, THH:mm:ss
//     or THH:mm:ss.sss and then Z or ±HH:mm, with expanded years ±YYYYYY
//     (but not -000000). Date-only forms are UTC; date-time forms without an
//     offset are local time, which is UTC here. Like V8 it also accepts any
//     number of fraction digits (only the first three count), an hour of 24
//     with zero minutes and seconds, and ±HHmm offsets.
//   - V8's legacy formats, for example "Jan 15, 2024", "January 15, 2024
//     10:00:00", "15 Jan 2024", "Mon, 15 Jan 2024 10:00:00 GMT",
//     "2024/01/15", "1/15/2024", "2024-01-15 10:00:00", "10:00 PM",
//     offsets such as "GMT+0200", "UTC-5" or "+05:30", the zone names UT,
//     UTC, GMT, Z, EST, EDT, CST, CDT, MST, MDT, PST and PDT, and
//     parenthesised comments. Other words are ignored before the first
//     number (so weekday names work) and make the string invalid after it;
//     a month is recognised by its first three
//     letters; two-digit years 0-49 mean 2000-2049 and 50-99 mean 1950-1999;
//     a missing year is 2001 (V8 fills in the missing component with 1,
//     which then reads as a two-digit year). A legacy string without a zone
//     is local time, i.e. UTC.
//
// The first NUL character ends the input, as in V8. The result is clipped
// like every time value: anything outside ±8.64e15 ms is NaN.
func Parse(s string) float64 { return ParseTicked(s, nil) }

// tickChars is how many characters the parser reads between two calls of
// its tick function.
const tickChars = 4096

// ParseTicked is Parse calling tick(n) every tickChars characters read,
// so that a caller can stop a parse of a 16 M-character string at its
// deadline (tick panics to stop it). A nil tick is never called.
func ParseTicked(s string, tick func(n int)) float64 {
	p := parser{
		time: timeComposer{hourOffset: none},
		tz:   zoneComposer{sign: none, hour: none, minute: none},
	}
	p.in.tick = tick
	p.in.init(s)
	p.tok = p.scan()
	if !p.parse() {
		return math.NaN()
	}
	year, month, day, ok := p.day.write()
	if !ok {
		return math.NaN()
	}
	hour, minute, second, milli, ok := p.time.write()
	if !ok {
		return math.NaN()
	}
	offset, hasOffset, ok := p.tz.write()
	if !ok {
		return math.NaN()
	}
	date := MakeDate(MakeDay(float64(year), float64(month-1), float64(day)),
		MakeTime(float64(hour), float64(minute), float64(second), float64(milli)))
	if !hasOffset {
		// Local time. V8 first bounds the value with a margin for the
		// local offset, then converts it to UTC, which is the identity here;
		// TimeClip below rejects the margin again.
		if !(date >= -maxTimeBeforeUTC && date <= maxTimeBeforeUTC) {
			return math.NaN()
		}
	} else {
		date -= float64(offset) * 1000
	}
	return TimeClip(date)
}

// maxTimeBeforeUTC is V8's DateCache::kMaxTimeBeforeUTCInMs, MaxTime plus a
// margin for the local offset. With local time being UTC the margin cannot
// change a result: TimeClip rejects anything beyond MaxTime.
const maxTimeBeforeUTC = MaxTime + 10*MsPerDay

// none marks an absent component (V8's kNone). Parsed numbers never reach
// it: a numeral contributes at most nine digits.
const none = math.MaxInt32

// maxSignificantDigits is how many digits of a numeral count; the rest are
// read and ignored.
const maxSignificantDigits = 9

// smiMax bounds the offset in seconds of a time zone, as V8's Smi range
// does on 64-bit targets (total offsets above it make the string invalid).
const smiMax = math.MaxInt32

// reader walks the input one character at a time. V8 reads UTF-16 code
// units; reading runes instead changes nothing observable: a character
// outside the BMP is a word character either way (as are its surrogates),
// and only the first three characters of a word are ever compared.
type reader struct {
	s   string
	pos int  // offset of the character after ch
	ch  rune // current character; 0 at the end (and at a NUL)
	// tick, when set, is called every tickChars bytes read (mark is
	// the offset of the next call).
	tick func(n int)
	mark int
}

func (r *reader) init(s string) {
	r.s = s
	r.pos = 0
	r.mark = tickChars
	r.next()
}

func (r *reader) next() {
	if r.pos >= r.mark && r.tick != nil {
		r.mark += tickChars
		r.tick(tickChars)
	}
	if r.pos >= len(r.s) {
		r.ch = 0
		r.pos = len(r.s) + 1
		return
	}
	if c := r.s[r.pos]; c < utf8.RuneSelf {
		r.ch = rune(c)
		r.pos++
		return
	}
	ch, size := utf8.DecodeRuneInString(r.s[r.pos:])
	r.ch = ch // utf8.RuneError for a bad byte: still a word character
	r.pos += size
}

func isDigit(c rune) bool { return '0' <= c && c <= '9' }

// isWordChar is V8's test for a word character: 'A' or any later
// character ("[\]^_`{|}~" and everything beyond ASCII included) that is not
// white space. Line terminators U+2028 and U+2029 are word characters.
func isWordChar(c rune) bool { return c >= 'A' && !isWhiteSpace(c) }

// isWhiteSpace is ECMAScript's WhiteSpace: TAB, VT, FF, ZWNBSP and the
// Unicode space separators (category Zs).
func isWhiteSpace(c rune) bool {
	switch c {
	case '\t', '\v', '\f', ' ', 0xA0, 0x1680, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return 0x2000 <= c && c <= 0x200A
}

// isSpace is WhiteSpace or LineTerminator, the characters that make a
// white-space token (U+2028 and U+2029 never get here: they are words).
func isSpace(c rune) bool {
	switch c {
	case '\n', '\r', 0x2028, 0x2029:
		return true
	}
	return isWhiteSpace(c)
}

type tokenKind int8

const (
	tokInvalid tokenKind = iota // parsing has failed for good
	tokUnknown                  // any other character, or a (comment)
	tokNumber                   // a run of ASCII digits
	tokSymbol                   // one of : - + . )
	tokSpace                    // one white-space character
	tokEnd                      // end of input
	tokWord                     // a run of word characters
)

// keyword classifies words (V8's KeywordType).
type keyword int8

const (
	kwNone    keyword = iota // not a keyword: a "garbage" word
	kwMonth                  // value 1..12
	kwZone                   // value: offset in hours
	kwTimeSep                // the "T" of the ISO format
	kwAmPm                   // value: 0 for AM, 12 for PM
)

type token struct {
	kind   tokenKind
	kw     keyword // for tokWord
	length int     // characters in the numeral or word
	value  int     // the number, symbol character or keyword value
}

func (t token) isNumber() bool           { return t.kind == tokNumber }
func (t token) isFixedNumber(n int) bool { return t.kind == tokNumber && t.length == n }
func (t token) isSymbol(c byte) bool     { return t.kind == tokSymbol && t.value == int(c) }
func (t token) isSign() bool             { return t.isSymbol('+') || t.isSymbol('-') }
func (t token) isEnd() bool              { return t.kind == tokEnd }
func (t token) isKeyword(k keyword) bool {
	return t.kind == tokWord && t.kw == k
}

// sign is 1 for '+' and -1 for '-'.
func (t token) sign() int {
	if t.value == '-' {
		return -1
	}
	return 1
}

// isZ reports the single-letter zone "Z" (or "z").
func (t token) isZ() bool {
	return t.isKeyword(kwZone) && t.length == 1 && t.value == 0
}

// keywords is V8's keyword table, in its order: a word matches the first
// entry whose three-letter prefix (lower case, zero padded) equals the
// word's; only month names may be longer than three letters.
var keywords = [...]struct {
	prefix [3]rune
	kw     keyword
	value  int
}{
	{[3]rune{'j', 'a', 'n'}, kwMonth, 1},
	{[3]rune{'f', 'e', 'b'}, kwMonth, 2},
	{[3]rune{'m', 'a', 'r'}, kwMonth, 3},
	{[3]rune{'a', 'p', 'r'}, kwMonth, 4},
	{[3]rune{'m', 'a', 'y'}, kwMonth, 5},
	{[3]rune{'j', 'u', 'n'}, kwMonth, 6},
	{[3]rune{'j', 'u', 'l'}, kwMonth, 7},
	{[3]rune{'a', 'u', 'g'}, kwMonth, 8},
	{[3]rune{'s', 'e', 'p'}, kwMonth, 9},
	{[3]rune{'o', 'c', 't'}, kwMonth, 10},
	{[3]rune{'n', 'o', 'v'}, kwMonth, 11},
	{[3]rune{'d', 'e', 'c'}, kwMonth, 12},
	{[3]rune{'a', 'm', 0}, kwAmPm, 0},
	{[3]rune{'p', 'm', 0}, kwAmPm, 12},
	{[3]rune{'u', 't', 0}, kwZone, 0},
	{[3]rune{'u', 't', 'c'}, kwZone, 0},
	{[3]rune{'z', 0, 0}, kwZone, 0},
	{[3]rune{'g', 'm', 't'}, kwZone, 0},
	{[3]rune{'c', 'd', 't'}, kwZone, -5},
	{[3]rune{'c', 's', 't'}, kwZone, -6},
	{[3]rune{'e', 'd', 't'}, kwZone, -4},
	{[3]rune{'e', 's', 't'}, kwZone, -5},
	{[3]rune{'m', 'd', 't'}, kwZone, -6},
	{[3]rune{'m', 's', 't'}, kwZone, -7},
	{[3]rune{'p', 'd', 't'}, kwZone, -7},
	{[3]rune{'p', 's', 't'}, kwZone, -8},
	{[3]rune{'t', 0, 0}, kwTimeSep, 0},
}

func lookupKeyword(prefix [3]rune, length int) (keyword, int) {
	for _, k := range keywords {
		if k.prefix == prefix && (length <= 3 || k.kw == kwMonth) {
			return k.kw, k.value
		}
	}
	return kwNone, 0
}

// parser holds the tokenizer state (one token of look-ahead) and the three
// composers that collect the date, the time and the zone.
type parser struct {
	in   reader
	tok  token // the look-ahead token
	day  dayComposer
	time timeComposer
	tz   zoneComposer
}

// scan reads the next token from the input.
func (p *parser) scan() token {
	in := &p.in
	c := in.ch
	switch {
	case c == 0:
		return token{kind: tokEnd}
	case isDigit(c):
		// Leading zeros count toward the length but not toward the
		// significant digits.
		n, length, digits := 0, 0, 0
		for in.ch == '0' {
			length++
			in.next()
		}
		for isDigit(in.ch) {
			if digits < maxSignificantDigits {
				n = n*10 + int(in.ch-'0')
			}
			digits++
			in.next()
		}
		return token{kind: tokNumber, length: length + digits, value: n}
	case c == ':' || c == '-' || c == '+' || c == '.' || c == ')':
		in.next()
		return token{kind: tokSymbol, length: 1, value: int(c)}
	case isWordChar(c):
		var prefix [3]rune
		length := 0
		for isWordChar(in.ch) {
			if length < 3 {
				prefix[length] = in.ch | 0x20 // V8's AsciiAlphaToLower
			}
			length++
			in.next()
		}
		kw, value := lookupKeyword(prefix, length)
		return token{kind: tokWord, kw: kw, length: length, value: value}
	case isSpace(c):
		in.next()
		return token{kind: tokSpace, length: 1}
	case c == '(':
		// Skip a parenthesised comment, nesting included, up to its
		// closing parenthesis or the end of the input.
		for depth := 0; ; {
			switch in.ch {
			case ')':
				depth--
			case '(':
				depth++
			}
			in.next()
			if depth <= 0 || in.ch == 0 {
				break
			}
		}
		return token{kind: tokUnknown, length: 1}
	default:
		in.next()
		return token{kind: tokUnknown, length: 1}
	}
}

// next consumes and returns the look-ahead token.
func (p *parser) next() token {
	t := p.tok
	p.tok = p.scan()
	return t
}

// peek returns the look-ahead token.
func (p *parser) peek() token { return p.tok }

// skipSymbol consumes the look-ahead token if it is the symbol c.
func (p *parser) skipSymbol(c byte) bool {
	if p.tok.isSymbol(c) {
		p.tok = p.scan()
		return true
	}
	return false
}

// parse runs V8's DateParser::Parse: the ISO format first, then the legacy
// grammar on whatever the ISO parser left. It reports whether the string
// was accepted; the composers hold the result.
func (p *parser) parse() bool {
	tok := p.parseISO()
	if tok.kind == tokInvalid {
		return false
	}
	hasNumber := !p.day.empty()
	for ; !tok.isEnd(); tok = p.next() {
		switch {
		case tok.isNumber():
			hasNumber = true
			n := tok.value
			switch {
			case p.skipSymbol(':'):
				if p.skipSymbol(':') {
					// "n::" is hours and zero minutes.
					if !p.time.empty() {
						return false
					}
					p.time.add(n)
					p.time.add(0)
				} else {
					// "n:"
					if !p.time.add(n) {
						return false
					}
					if p.peek().isSymbol('.') {
						p.next()
					}
				}
			case p.skipSymbol('.') && p.time.expecting(n):
				// "n." followed by milliseconds.
				p.time.add(n)
				if !p.peek().isNumber() {
					return false
				}
				p.time.addFinal(readMilliseconds(p.next()))
			case p.tz.expecting(n):
				p.tz.minute = n
			case p.time.expecting(n):
				p.time.addFinal(n)
				// The time must be followed by the end, white space, "Z"
				// or a sign.
				if next := p.peek(); !next.isEnd() && next.kind != tokSpace && !next.isZ() && !next.isSign() {
					return false
				}
			default:
				if !p.day.add(n) {
					return false
				}
				p.skipSymbol('-')
			}
		case tok.kind == tokWord:
			switch {
			case tok.kw == kwAmPm && !p.time.empty():
				p.time.hourOffset = tok.value
			case tok.kw == kwMonth:
				p.day.namedMonth = tok.value
				p.skipSymbol('-')
			case tok.kw == kwZone && hasNumber:
				p.tz.set(tok.value)
			default:
				// Other words are allowed only before the first number,
				// and must be separated from it.
				if hasNumber || p.peek().isNumber() {
					return false
				}
			}
		case tok.isSign() && (p.tz.isUTC() || !p.time.empty()):
			// A UTC offset, after a zone name such as "GMT" or a time.
			p.tz.sign = tok.sign()
			n, length := 0, 0
			if p.peek().isNumber() {
				t := p.next()
				n, length = t.value, t.length
			}
			hasNumber = true
			switch {
			case p.peek().isSymbol(':'):
				p.tz.hour, p.tz.minute = n, none // minutes follow
			case length == 1 || length == 2:
				p.tz.hour, p.tz.minute = n, 0 // GMT-8
			case length == 3 || length == 4:
				p.tz.hour, p.tz.minute = n/100, n%100 // hhmm
			default:
				return false
			}
		case (tok.isSign() || tok.isSymbol(')')) && hasNumber:
			// Stray signs and parentheses are errors after a number.
			return false
		default:
			// Everything else (white space, punctuation, comments) is
			// ignored.
		}
	}
	return true
}

// parseISO parses as much of the string as follows the ECMAScript date
// time string format. It returns tokEnd if the whole string was such a
// date, tokInvalid if it started as one with a time part and then broke the
// format (no legacy fallback is possible then), and otherwise the first
// token the legacy parser should look at.
func (p *parser) parseISO() token {
	// The date: ±YYYYYY or YYYY, then optional -MM and -DD.
	switch {
	case p.peek().isSign():
		signTok := p.next()
		if !p.peek().isFixedNumber(6) {
			return signTok
		}
		year := p.next().value
		if signTok.sign() < 0 && year == 0 {
			return signTok // -000000 is not a year
		}
		p.day.add(signTok.sign() * year)
	case p.peek().isFixedNumber(4):
		p.day.add(p.next().value)
	default:
		return p.next()
	}
	if p.skipSymbol('-') {
		if !p.peek().isFixedNumber(2) || !isMonth(p.peek().value) {
			return p.next()
		}
		p.day.add(p.next().value)
		if p.skipSymbol('-') {
			if !p.peek().isFixedNumber(2) || !isDay(p.peek().value) {
				return p.next()
			}
			p.day.add(p.next().value)
		}
	}
	if !p.peek().isKeyword(kwTimeSep) {
		if !p.peek().isEnd() {
			return p.next()
		}
	} else {
		// The time: THH:mm[:ss[.sss]], then Z or ±HH:mm or ±HHmm.
		p.next()
		if !p.peek().isFixedNumber(2) || !between(p.peek().value, 0, 24) {
			return token{kind: tokInvalid}
		}
		hour24 := p.peek().value == 24 // only 24:00:00.000 is allowed
		p.time.add(p.next().value)
		if !p.skipSymbol(':') {
			return token{kind: tokInvalid}
		}
		if !p.peek().isFixedNumber(2) || !isMinute(p.peek().value) || (hour24 && p.peek().value > 0) {
			return token{kind: tokInvalid}
		}
		p.time.add(p.next().value)
		if p.skipSymbol(':') {
			if !p.peek().isFixedNumber(2) || !isSecond(p.peek().value) || (hour24 && p.peek().value > 0) {
				return token{kind: tokInvalid}
			}
			p.time.add(p.next().value)
			if p.skipSymbol('.') {
				if !p.peek().isNumber() || (hour24 && p.peek().value > 0) {
					return token{kind: tokInvalid}
				}
				p.time.add(readMilliseconds(p.next()))
			}
		}
		switch {
		case p.peek().isZ():
			p.next()
			p.tz.set(0)
		case p.peek().isSign():
			p.tz.sign = p.next().sign()
			if p.peek().isFixedNumber(4) {
				hm := p.next().value
				h, m := hm/100, hm%100
				if !isHour(h) || !isMinute(m) {
					return token{kind: tokInvalid}
				}
				p.tz.hour, p.tz.minute = h, m
			} else {
				if !p.peek().isFixedNumber(2) || !isHour(p.peek().value) {
					return token{kind: tokInvalid}
				}
				p.tz.hour = p.next().value
				if !p.skipSymbol(':') {
					return token{kind: tokInvalid}
				}
				if !p.peek().isFixedNumber(2) || !isMinute(p.peek().value) {
					return token{kind: tokInvalid}
				}
				p.tz.minute = p.next().value
			}
		}
		if !p.peek().isEnd() {
			return token{kind: tokInvalid}
		}
	}
	// A complete ISO string. Date-only forms without an offset are UTC.
	if p.tz.empty() && p.time.empty() {
		p.tz.set(0)
	}
	p.day.iso = true
	return token{kind: tokEnd}
}

// readMilliseconds turns a fraction's digits into milliseconds: its first
// three digits, as if padded with zeros ("5" is 500, "12345" is 123).
func readMilliseconds(t token) int {
	n, length := t.value, t.length
	switch {
	case length == 1:
		n *= 100
	case length == 2:
		n *= 10
	case length > 3:
		if length > maxSignificantDigits {
			length = maxSignificantDigits
		}
		for ; length > 3; length-- {
			n /= 10
		}
	}
	return n
}

func between(x, lo, hi int) bool { return lo <= x && x <= hi }
func isMonth(x int) bool         { return between(x, 1, 12) }
func isDay(x int) bool           { return between(x, 1, 31) }
func isHour(x int) bool          { return between(x, 0, 23) }
func isHour12(x int) bool        { return between(x, 0, 12) }
func isMinute(x int) bool        { return between(x, 0, 59) }
func isSecond(x int) bool        { return between(x, 0, 59) }
func isMillisecond(x int) bool   { return between(x, 0, 999) }

// dayComposer collects up to three date numbers and a named month, and
// decides which is the year, the month and the day.
type dayComposer struct {
	comp       [3]int
	n          int
	namedMonth int // 0 when no month name was seen
	iso        bool
}

func (d *dayComposer) empty() bool { return d.n == 0 }

func (d *dayComposer) add(v int) bool {
	if d.n >= len(d.comp) {
		return false
	}
	d.comp[d.n] = v
	d.n++
	return true
}

// write resolves the components: month (1..12) and day (1..31) checked,
// two-digit legacy years widened.
func (d *dayComposer) write() (year, month, day int, ok bool) {
	if d.n < 1 {
		return 0, 0, 0, false
	}
	// Missing components default to 1. (This makes the third component
	// always present, so a legacy date without a year gets year 1, which
	// becomes 2001 below.)
	for i := d.n; i < len(d.comp); i++ {
		d.comp[i] = 1
	}
	c := d.comp
	if d.namedMonth == 0 {
		if d.iso || !isDay(c[0]) {
			year, month, day = c[0], c[1], c[2] // Y M D
		} else {
			month, day, year = c[0], c[1], c[2] // M D Y
		}
	} else {
		month = d.namedMonth
		if !isDay(c[0]) {
			year, day = c[0], c[1] // Y M D, M Y D or Y D M
		} else {
			day, year = c[0], c[1] // D M Y, M D Y or D Y M
		}
	}
	if !d.iso {
		switch {
		case between(year, 0, 49):
			year += 2000
		case between(year, 50, 99):
			year += 1900
		}
	}
	if !isMonth(month) || !isDay(day) {
		return 0, 0, 0, false
	}
	return year, month, day, true
}

// timeComposer collects hour, minute, second and millisecond, and an
// AM/PM marker.
type timeComposer struct {
	comp       [4]int
	n          int
	hourOffset int // none, or 0 (AM) or 12 (PM)
}

func (t *timeComposer) empty() bool { return t.n == 0 }

// expecting reports whether n can be the next component after at least an
// hour has been read.
func (t *timeComposer) expecting(n int) bool {
	return (t.n == 1 && isMinute(n)) || (t.n == 2 && isSecond(n)) || (t.n == 3 && isMillisecond(n))
}

func (t *timeComposer) add(n int) bool {
	if t.n >= len(t.comp) {
		return false
	}
	t.comp[t.n] = n
	t.n++
	return true
}

// addFinal adds n and zeroes the remaining components.
func (t *timeComposer) addFinal(n int) {
	if !t.add(n) {
		return
	}
	for t.n < len(t.comp) {
		t.comp[t.n] = 0
		t.n++
	}
}

func (t *timeComposer) write() (hour, minute, second, milli int, ok bool) {
	for i := t.n; i < len(t.comp); i++ {
		t.comp[i] = 0
	}
	hour, minute, second, milli = t.comp[0], t.comp[1], t.comp[2], t.comp[3]
	if t.hourOffset != none {
		if !isHour12(hour) {
			return 0, 0, 0, 0, false
		}
		hour = hour%12 + t.hourOffset
	}
	if !isHour(hour) || !isMinute(minute) || !isSecond(second) || !isMillisecond(milli) {
		// Hour 24 is allowed when everything else is zero.
		if hour != 24 || minute != 0 || second != 0 || milli != 0 {
			return 0, 0, 0, 0, false
		}
	}
	return hour, minute, second, milli, true
}

// zoneComposer collects a UTC offset.
type zoneComposer struct {
	sign, hour, minute int // each none when absent
}

// set records a whole-hour offset, as a zone name gives.
func (z *zoneComposer) set(hours int) {
	z.sign = 1
	if hours < 0 {
		z.sign = -1
	}
	z.hour = hours * z.sign
	z.minute = 0
}

func (z *zoneComposer) empty() bool { return z.hour == none }

func (z *zoneComposer) isUTC() bool { return z.hour == 0 && z.minute == 0 }

// expecting reports whether n can be the minutes of an offset whose hours
// were followed by ':'.
func (z *zoneComposer) expecting(n int) bool {
	return z.hour != none && z.minute == none && isMinute(n)
}

// write returns the offset in seconds; has is false when the string named
// no zone (local time).
func (z *zoneComposer) write() (seconds int, has, ok bool) {
	if z.sign == none {
		return 0, false, true
	}
	h, m := z.hour, z.minute
	if h == none {
		h = 0
	}
	if m == none {
		m = 0
	}
	// V8 computes this in unsigned 32-bit arithmetic, wrapping included.
	total := uint32(h)*3600 + uint32(m)*60
	if total > smiMax {
		return 0, false, false
	}
	seconds = int(total)
	if z.sign < 0 {
		seconds = -seconds
	}
	return seconds, true, true
}
