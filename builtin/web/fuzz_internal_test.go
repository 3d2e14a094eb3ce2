package web

import (
	"testing"
	"unicode/utf16"
)

// FuzzURL checks that no input makes the URL parser, its setters, the
// form parser or the decoders panic, and that a parsed URL reparses to
// itself (the serializer's output is a fixed point).
func FuzzURL(f *testing.F) {
	for _, s := range []string{"http://a/b?c#d", "sc:b c #x", "file:///C:/a/../..", "http://[::ffff:1.2.3.4]/",
		"http://0x7f.1", "https://münchen.example/", "http://xn--a.com", "a%zz=1&b=%ED%A0%80", "aGk=", "\xed\xa0\x80",
		"http://a:b@c:1/d;e?f#g", "non-spec:/..//p", "http://ΣΑΣ.gr", "http://\u0301a", "//x", "?q", "#f", "xn--ls8h.例"} {
		f.Add(s, "http://base.example/dir/file")
	}
	f.Fuzz(func(t *testing.T, in, base string) {
		b := parseURL(base, nil)
		u := parseURL(in, b)
		if u != nil {
			href := u.serialize(false)
			again := parseURL(href, nil)
			if again == nil || again.serialize(false) != href {
				t.Fatalf("%q (base %q) serialized to %q, which does not reparse to itself", in, base, href)
			}
			_ = u.origin()
			for _, st := range []urlState{stSchemeStart, stHost, stHostname, stPort, stPathStart, stQuery, stFragment} {
				c := u.clone()
				basicParse(in, nil, c, st, nil)
				_ = c.serialize(false)
			}
		}
		_ = serializeForm(parseForm(in))
		_, _ = punyDecode(in)
		_, _ = punyEncode(in)
		_, _, _ = decodeBase64JS(utf16.Encode([]rune(in)), false, "strict", len(in), nil)
		_, _ = decodeUTF8([]byte(in), false)
	})
}
