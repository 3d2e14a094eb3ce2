package numeric

import (
	"math"
	"strconv"
	"strings"

	"github.com/go-codemode/codemode/value"
)

// Number.prototype.toLocaleString: always en-US (reference 2.9), with the
// Intl.NumberFormat options a program is likely to pass: style (decimal,
// percent, currency), currency, currencyDisplay, currencySign, the digit
// options (minimum/maximum fraction and significant digits,
// minimumIntegerDigits, roundingPriority, roundingMode,
// trailingZeroDisplay), useGrouping and signDisplay. Options are read and
// validated in ECMA-402's order with V8's messages.
//
// Like ICU, rounding works on the shortest decimal form of the number
// (1.005 rounds to "1.01" with two fraction digits, where toFixed gives
// "1.00").

const optionsOwner = "Number.prototype.toLocaleString"

// numberFormat holds resolved options.
type numberFormat struct {
	style           string // decimal, percent, currency
	currency        string // upper case
	currencyDisplay string
	currencySign    string
	minInt          int
	minFrac         int
	maxFrac         int
	minSig          int
	maxSig          int
	useSig, useFrac bool
	priority        string
	roundingMode    string
	stripIfInteger  bool
	grouping        string // auto, always, min2, or "" for none
	signDisplay     string
}

func formatLocaleNumber(r *value.Realm, x float64, locales, options value.Value) string {
	checkLocales(r, locales)
	f := readNumberOptions(r, options)
	return f.format(x)
}

// checkLocales validates the locales argument as CanonicalizeLocaleList
// does (the locale itself is always en-US).
func checkLocales(r *value.Realm, locales value.Value) {
	if locales.IsUndefined() {
		return
	}
	if s := locales.AsString(); s != nil {
		checkLanguageTag(r, s.String())
		return
	}
	o := r.ToObject(locales)
	n := r.LengthOf(value.Obj(o))
	for i := 0; i < n; i++ {
		key := strconv.Itoa(i)
		if !r.HasProperty(o, key) {
			continue
		}
		v := r.Get(value.Obj(o), key)
		if !v.IsString() && !v.IsObject() {
			r.ThrowType("Language ID should be string or object.")
		}
		checkLanguageTag(r, r.ToString(v).String())
	}
}

// checkLanguageTag accepts the shape of a BCP 47 language tag: a 2-3 or
// 5-8 letter language followed by alphanumeric subtags of 1-8 characters.
func checkLanguageTag(r *value.Realm, tag string) {
	parts := strings.Split(tag, "-")
	ok := len(parts[0]) >= 2 && len(parts[0]) <= 8 && len(parts[0]) != 4 && isAlpha(parts[0])
	for _, p := range parts[1:] {
		if len(p) < 1 || len(p) > 8 || !isAlnum(p) {
			ok = false
		}
	}
	if !ok {
		r.ThrowRange("Invalid language tag: %s", tag)
	}
}

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9') && !isAlpha(s[i:i+1]) {
			return false
		}
	}
	return true
}

// getStringOption is GetOption(options, name, string, allowed, fallback).
func getStringOption(r *value.Realm, opts value.Value, name string, allowed []string, fallback string) string {
	v := r.Get(opts, name)
	if v.IsUndefined() {
		return fallback
	}
	s := r.ToString(v).String()
	if allowed != nil && !contains(allowed, s) {
		r.ThrowRange("Value %s out of range for %s options property %s", s, optionsOwner, name)
	}
	return s
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// defaultNumberOption is DefaultNumberOption(value, min, max, fallback);
// present reports whether the option was given.
func defaultNumberOption(r *value.Realm, v value.Value, name string, lo, hi, fallback int) int {
	if v.IsUndefined() {
		return fallback
	}
	f := r.ToNumber(v)
	if math.IsNaN(f) || f < float64(lo) || f > float64(hi) {
		r.ThrowRange("%s value is out of range.", name)
	}
	return int(math.Floor(f))
}

func readNumberOptions(r *value.Realm, options value.Value) *numberFormat {
	if options.IsNull() {
		r.ThrowType("%s called on null or undefined", optionsOwner)
	}
	f := &numberFormat{style: "decimal", minInt: 1, priority: "auto", roundingMode: "halfExpand", grouping: "auto", signDisplay: "auto"}
	if options.IsUndefined() {
		f.useFrac, f.minFrac, f.maxFrac = true, 0, 3
		return f
	}
	opts := value.Obj(r.ToObject(options))
	getStringOption(r, opts, "localeMatcher", []string{"lookup", "best fit"}, "best fit")
	if nu := getStringOption(r, opts, "numberingSystem", nil, ""); nu != "" && nu != "latn" {
		checkLanguageTag(r, "en-"+nu)
	}
	f.style = getStringOption(r, opts, "style", []string{"decimal", "percent", "currency", "unit"}, "decimal")
	cur := r.Get(opts, "currency")
	if !cur.IsUndefined() {
		c := r.ToString(cur).String()
		if len(c) != 3 || !isAlpha(c) {
			r.ThrowRange("Invalid currency code : %s", c)
		}
		f.currency = strings.ToUpper(c)
	}
	f.currencyDisplay = getStringOption(r, opts, "currencyDisplay", []string{"code", "symbol", "narrowSymbol", "name"}, "symbol")
	f.currencySign = getStringOption(r, opts, "currencySign", []string{"standard", "accounting"}, "standard")
	unit := getStringOption(r, opts, "unit", nil, "")
	getStringOption(r, opts, "unitDisplay", []string{"short", "narrow", "long"}, "short")
	switch f.style {
	case "currency":
		if cur.IsUndefined() {
			r.ThrowType("Currency code is required with currency style.")
		}
	case "unit":
		if unit == "" {
			r.ThrowType("Invalid unit argument for %s() '%s'", optionsOwner, unit)
		}
		r.ThrowType("Number.prototype.toLocaleString: style \"unit\" is not supported; format the number and append the unit instead.")
	}
	notation := getStringOption(r, opts, "notation", []string{"standard", "scientific", "engineering", "compact"}, "standard")
	if notation != "standard" {
		r.ThrowType("Number.prototype.toLocaleString: notation %q is not supported; only \"standard\" is.", notation)
	}
	minFracDefault, maxFracDefault := 0, 3
	switch f.style {
	case "percent":
		maxFracDefault = 0
	case "currency":
		d := currencyDigits(f.currency)
		minFracDefault, maxFracDefault = d, d
	}
	f.digitOptions(r, opts, minFracDefault, maxFracDefault)
	grouping := r.Get(opts, "useGrouping")
	switch {
	case grouping.IsUndefined():
	case grouping.IsBool() && grouping.BoolValue():
		f.grouping = "always"
	case !grouping.ToBoolean():
		f.grouping = ""
	default:
		s := r.ToString(grouping).String()
		switch s {
		case "true", "false":
		case "min2", "auto", "always":
			f.grouping = s
		default:
			r.ThrowRange("Value %s out of range for %s options property useGrouping", s, optionsOwner)
		}
	}
	f.signDisplay = getStringOption(r, opts, "signDisplay", []string{"auto", "never", "always", "exceptZero", "negative"}, "auto")
	return f
}

// digitOptions is SetNumberFormatDigitOptions.
func (f *numberFormat) digitOptions(r *value.Realm, opts value.Value, minFracDefault, maxFracDefault int) {
	f.minInt = defaultNumberOption(r, r.Get(opts, "minimumIntegerDigits"), "minimumIntegerDigits", 1, 21, 1)
	mnfd := r.Get(opts, "minimumFractionDigits")
	mxfd := r.Get(opts, "maximumFractionDigits")
	mnsd := r.Get(opts, "minimumSignificantDigits")
	mxsd := r.Get(opts, "maximumSignificantDigits")
	increment := r.Get(opts, "roundingIncrement")
	if !increment.IsUndefined() {
		n := defaultNumberOption(r, increment, "roundingIncrement", 1, 5000, 1)
		if !contains([]string{"1", "2", "5", "10", "20", "25", "50", "100", "200", "250", "500", "1000", "2000", "2500", "5000"}, strconv.Itoa(n)) {
			r.ThrowRange("roundingIncrement value is out of range.")
		}
		if n != 1 {
			r.ThrowType("Number.prototype.toLocaleString: roundingIncrement other than 1 is not supported.")
		}
	}
	f.roundingMode = getStringOption(r, opts, "roundingMode",
		[]string{"ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"}, "halfExpand")
	f.priority = getStringOption(r, opts, "roundingPriority", []string{"auto", "morePrecision", "lessPrecision"}, "auto")
	tz := getStringOption(r, opts, "trailingZeroDisplay", []string{"auto", "stripIfInteger"}, "auto")
	f.stripIfInteger = tz == "stripIfInteger"
	hasSd := !mnsd.IsUndefined() || !mxsd.IsUndefined()
	hasFd := !mnfd.IsUndefined() || !mxfd.IsUndefined()
	needSd, needFd := true, true
	if f.priority == "auto" {
		needSd = hasSd
		if needSd {
			needFd = false
		}
	}
	if needSd {
		f.useSig = true
		f.minSig, f.maxSig = 1, 21
		if hasSd {
			f.minSig = defaultNumberOption(r, mnsd, "minimumSignificantDigits", 1, 21, 1)
			f.maxSig = defaultNumberOption(r, mxsd, "maximumSignificantDigits", f.minSig, 21, 21)
		}
	}
	if needFd {
		f.useFrac = true
		f.minFrac, f.maxFrac = minFracDefault, maxFracDefault
		if hasFd {
			lo := defaultNumberOption(r, mnfd, "minimumFractionDigits", 0, 100, -1)
			hi := defaultNumberOption(r, mxfd, "maximumFractionDigits", 0, 100, -1)
			switch {
			case lo < 0:
				lo = min(minFracDefault, hi)
			case hi < 0:
				hi = max(maxFracDefault, lo)
			case lo > hi:
				r.ThrowRange("maximumFractionDigits value is out of range.")
			}
			f.minFrac, f.maxFrac = lo, hi
		}
	}
}

// decimal is a non-negative decimal number 0.d1d2d3... × 10^point, with
// no leading or trailing zeros in digits (zero has no digits).
type decimal struct {
	digits []byte
	point  int
}

// shortestDecimal is the shortest decimal that reads back as |x|.
func shortestDecimal(x float64) decimal {
	x = math.Abs(x)
	if x == 0 {
		return decimal{}
	}
	s := strconv.FormatFloat(x, 'e', -1, 64) // d.ddddde±XX
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp)
	digits := []byte(strings.Replace(mant, ".", "", 1))
	d := decimal{digits: digits, point: e + 1}
	d.trim()
	return d
}

func (d *decimal) trim() {
	n := len(d.digits)
	for n > 0 && d.digits[n-1] == '0' {
		n--
	}
	d.digits = d.digits[:n]
	if n == 0 {
		d.point = 0
	}
}

// roundAt keeps the digits before position keep (an index into digits,
// possibly negative or past the end), rounding by mode; negative tells
// the sign of the number, for the directed modes.
func (d *decimal) roundAt(keep int, mode string, negative bool) {
	if keep >= len(d.digits) {
		return
	}
	// What is dropped: compare with one half.
	var first byte = '0'
	if keep >= 0 {
		first = d.digits[keep]
	}
	rest := false // any nonzero digit after the first dropped one
	from := max(keep+1, 0)
	if keep < 0 {
		from = 0
		rest = len(d.digits) > 0
	} else {
		for _, c := range d.digits[from:] {
			if c != '0' {
				rest = true
				break
			}
		}
	}
	nonzero := first != '0' || rest
	var half int // -1 below half, 0 exactly half, 1 above
	switch {
	case keep < 0:
		half = -1
	case first > '5' || first == '5' && rest:
		half = 1
	case first == '5':
		half = 0
	default:
		half = -1
	}
	kept := d.digits[:max(keep, 0)]
	lastOdd := len(kept) > 0 && (kept[len(kept)-1]-'0')%2 == 1
	up := false
	switch mode {
	case "ceil":
		up = nonzero && !negative
	case "floor":
		up = nonzero && negative
	case "expand":
		up = nonzero
	case "trunc":
	case "halfCeil":
		up = half > 0 || half == 0 && !negative
	case "halfFloor":
		up = half > 0 || half == 0 && negative
	case "halfTrunc":
		up = half > 0
	case "halfEven":
		up = half > 0 || half == 0 && lastOdd
	default: // halfExpand
		up = half >= 0
	}
	if keep <= 0 {
		if up {
			// The result is one unit in the position just before the
			// first kept place.
			d.digits = []byte{'1'}
			d.point = d.point - keep + 1
			return
		}
		d.digits, d.point = nil, 0
		return
	}
	digits := append([]byte(nil), kept...)
	if up {
		i := len(digits) - 1
		for i >= 0 && digits[i] == '9' {
			digits[i] = '0'
			i--
		}
		if i < 0 {
			digits = append([]byte{'1'}, digits...)
			d.point++
		} else {
			digits[i]++
		}
	}
	d.digits = digits
	d.trim()
}

// roundingMagnitude is the power of ten of the last place kept by
// rounding d to maxSig significant digits or maxFrac fraction digits.
func (f *numberFormat) round(x float64) (decimal, int) {
	neg := math.Signbit(x)
	src := shortestDecimal(x)
	if f.style == "percent" && len(src.digits) > 0 {
		src.point += 2
	}
	var sig, frac decimal
	var sigMag, fracMag int
	if f.useSig {
		sig = src
		sig.digits = append([]byte(nil), src.digits...)
		p := sig.point
		if len(src.digits) == 0 {
			p = 1
		}
		sig.roundAt(f.maxSig, f.roundingMode, neg)
		sigMag = p - f.maxSig
	}
	if f.useFrac {
		frac = src
		frac.digits = append([]byte(nil), src.digits...)
		frac.roundAt(src.point+f.maxFrac, f.roundingMode, neg)
		fracMag = -f.maxFrac
	}
	switch {
	case f.useSig && !f.useFrac:
		return sig, 0
	case f.useFrac && !f.useSig:
		return frac, 1
	case f.priority == "morePrecision":
		if sigMag <= fracMag {
			return sig, 0
		}
		return frac, 1
	default: // lessPrecision
		if sigMag <= fracMag {
			return frac, 1
		}
		return sig, 0
	}
}

func (f *numberFormat) format(x float64) string {
	var body string
	neg := math.Signbit(x) && !math.IsNaN(x)
	zero := false
	switch {
	case math.IsNaN(x):
		body = "NaN"
	case math.IsInf(x, 0):
		body = "∞"
	default:
		d, kind := f.round(x)
		zero = len(d.digits) == 0
		body = f.digitsString(d, kind)
	}
	sign := ""
	switch f.signDisplay {
	case "auto":
		if neg {
			sign = "-"
		}
	case "always":
		sign = "+"
		if neg {
			sign = "-"
		}
	case "exceptZero":
		if zero || math.IsNaN(x) {
			sign = ""
		} else if neg {
			sign = "-"
		} else {
			sign = "+"
		}
	case "negative":
		if neg && !zero {
			sign = "-"
		}
	}
	switch f.style {
	case "percent":
		return sign + body + "%"
	case "currency":
		return f.currencyString(sign, body, x)
	}
	return sign + body
}

// digitsString lays out a rounded decimal: integer digits (padded to
// minimumIntegerDigits, grouped), then the fraction padded to the
// minimum fraction or significant digits.
func (f *numberFormat) digitsString(d decimal, kind int) string {
	var intPart, fracPart []byte
	if d.point > 0 {
		for i := 0; i < d.point; i++ {
			if i < len(d.digits) {
				intPart = append(intPart, d.digits[i])
			} else {
				intPart = append(intPart, '0')
			}
		}
		if d.point < len(d.digits) {
			fracPart = append(fracPart, d.digits[d.point:]...)
		}
	} else if len(d.digits) > 0 {
		fracPart = append(fracPart, strings.Repeat("0", -d.point)...)
		fracPart = append(fracPart, d.digits...)
	}
	minFrac := f.minFrac
	if kind == 0 {
		// Pad to minimumSignificantDigits.
		sig := len(d.digits)
		if len(d.digits) == 0 {
			sig = 1
		} else if d.point > len(d.digits) {
			sig = d.point
		}
		minFrac = len(fracPart) + max(0, f.minSig-sig)
		if len(d.digits) == 0 {
			minFrac = f.minSig - 1
		}
	}
	if f.stripIfInteger && len(fracPart) == 0 {
		minFrac = 0
	}
	for len(fracPart) < minFrac {
		fracPart = append(fracPart, '0')
	}
	for len(intPart) < f.minInt {
		intPart = append([]byte{'0'}, intPart...)
	}
	var b strings.Builder
	group := false
	switch f.grouping {
	case "auto", "always":
		group = true
	case "min2":
		group = len(intPart) >= 5
	}
	for i, c := range intPart {
		if group && i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(c)
	}
	if len(fracPart) > 0 {
		b.WriteByte('.')
		b.Write(fracPart)
	}
	return b.String()
}

// currencyInfo is what en-US shows for a currency.
type currencyInfo struct {
	symbol, narrow string
	one, other     string // display names
}

var currencies = map[string]currencyInfo{
	"USD": {"$", "$", "US dollar", "US dollars"},
	"EUR": {"€", "€", "euro", "euros"},
	"GBP": {"£", "£", "British pound", "British pounds"},
	"JPY": {"¥", "¥", "Japanese yen", "Japanese yen"},
	"INR": {"₹", "₹", "Indian rupee", "Indian rupees"},
	"CNY": {"CN¥", "¥", "Chinese yuan", "Chinese yuan"},
	"CAD": {"CA$", "$", "Canadian dollar", "Canadian dollars"},
	"AUD": {"A$", "$", "Australian dollar", "Australian dollars"},
	"CHF": {"CHF", "CHF", "Swiss franc", "Swiss francs"},
	"KRW": {"₩", "₩", "South Korean won", "South Korean won"},
	"MXN": {"MX$", "$", "Mexican peso", "Mexican pesos"},
	"BRL": {"R$", "R$", "Brazilian real", "Brazilian reals"},
	"ILS": {"₪", "₪", "Israeli new shekel", "Israeli new shekels"},
	"VND": {"₫", "₫", "Vietnamese dong", "Vietnamese dong"},
	"NZD": {"NZ$", "$", "New Zealand dollar", "New Zealand dollars"},
	"HKD": {"HK$", "$", "Hong Kong dollar", "Hong Kong dollars"},
	"TWD": {"NT$", "$", "New Taiwan dollar", "New Taiwan dollars"},
	"SEK": {"SEK", "kr", "Swedish krona", "Swedish kronor"},
	"BHD": {"BHD", "BHD", "Bahraini dinar", "Bahraini dinars"},
}

// currencyDigits is the ISO 4217 minor unit count.
func currencyDigits(code string) int {
	switch code {
	case "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF":
		return 0
	case "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND":
		return 3
	}
	return 2
}

func (f *numberFormat) currencyString(sign, body string, x float64) string {
	info, known := currencies[f.currency]
	if f.currencyDisplay == "name" {
		name := f.currency
		if known {
			name = info.other
			if body == "1" {
				name = info.one
			}
		}
		return sign + body + " " + name
	}
	sym := f.currency
	switch {
	case f.currencyDisplay == "code":
	case f.currencyDisplay == "narrowSymbol" && known:
		sym = info.narrow
	case known:
		sym = info.symbol
	}
	// Letter symbols ("CHF") are set off by a no-break space.
	if r := []rune(sym); len(r) > 0 && r[len(r)-1] >= 'A' && r[len(r)-1] <= 'z' {
		sym += "\u00a0"
	}
	if f.currencySign == "accounting" && sign == "-" {
		return "(" + sym + body + ")"
	}
	return sign + sym + body
}
