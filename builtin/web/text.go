package web

// TextEncoder and TextDecoder, UTF-8 only. The decoder replaces invalid
// input the way the Encoding standard's UTF-8 decoder does (one U+FFFD
// per maximal invalid subpart), or throws node's TypeError when fatal.

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-codemode/codemode/value"
)

// textEncoderData marks TextEncoder objects.
type textEncoderData struct{}

// textDecoderData is the Internal of a TextDecoder.
type textDecoderData struct {
	fatal, ignoreBOM bool
}

func installText(l *value.Library) {
	l.Intrinsic(value.TextEncoderPrototype, value.IntrinsicSpec{Name: "TextEncoder.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			constructorFirst(r, o, value.TextEncoderCtor)
			accessor(r, o, "encoding", encoderEncoding, nil, true)
			webMethods(r, o, encoderProto)
			toStringTag(o, "TextEncoder")
		}})
	l.Intrinsic(value.TextEncoderCtor, value.IntrinsicSpec{Name: "TextEncoder",
		Func: &value.Native{Name: "TextEncoder", Ctor: true, Fn: func(r *value.Realm, c *value.Call) value.Value {
			requireNew(r, c, "TextEncoder")
			o := value.NewObject(r.ProtoFromCtor(c.NewTarget, value.TextEncoderPrototype))
			o.Internal = textEncoderData{}
			r.Charge(96)
			return value.Obj(o)
		}},
		Init: func(r *value.Realm, o *value.Object) { r.Constructor(o, r.Intrinsic(value.TextEncoderPrototype)) }})
	l.GlobalIntrinsic("TextEncoder", value.TextEncoderCtor)

	l.Intrinsic(value.TextDecoderPrototype, value.IntrinsicSpec{Name: "TextDecoder.prototype",
		Init: func(r *value.Realm, o *value.Object) {
			constructorFirst(r, o, value.TextDecoderCtor)
			webMethods(r, o, decoderProto)
			accessor(r, o, "encoding", decoderEncoding, nil, true)
			accessor(r, o, "fatal", decoderFatal, nil, true)
			accessor(r, o, "ignoreBOM", decoderIgnoreBOM, nil, true)
			toStringTag(o, "TextDecoder")
		}})
	l.Intrinsic(value.TextDecoderCtor, value.IntrinsicSpec{Name: "TextDecoder",
		Func: &value.Native{Name: "TextDecoder", Ctor: true, Fn: decoderCtor},
		Init: func(r *value.Realm, o *value.Object) { r.Constructor(o, r.Intrinsic(value.TextDecoderPrototype)) }})
	l.GlobalIntrinsic("TextDecoder", value.TextDecoderCtor)

	l.Register(encoderProto...)
	l.Register(decoderProto...)
	l.Register(encoderEncoding, decoderEncoding, decoderFatal, decoderIgnoreBOM)
}

func thisEncoder(r *value.Realm, c *value.Call) {
	if o := c.This.AsObject(); o != nil {
		if _, ok := o.Internal.(textEncoderData); ok {
			return
		}
	}
	r.ThrowType("Receiver must be an instance of class TextEncoder")
}

var encoderEncoding = native("TextEncoder.prototype.get encoding", 0, func(r *value.Realm, c *value.Call) value.Value {
	if o := c.This.AsObject(); o != nil {
		if _, ok := o.Internal.(textEncoderData); ok {
			return value.StrOf("utf-8")
		}
	}
	// node's TextEncoder keeps its encoding in a private field.
	r.ThrowType("Cannot read private member #encoding from an object whose class did not declare it")
	return value.Undefined
})

var encoderProto = []*value.Native{
	native("TextEncoder.prototype.encode", 0, func(r *value.Realm, c *value.Call) value.Value {
		thisEncoder(r, c)
		if c.Arg(0).IsUndefined() {
			return value.Obj(newU8Bytes(r, []byte{}))
		}
		s := r.ToString(c.Arg(0))
		// UTF-8 takes a byte an ASCII unit, at most three a wide one:
		// check the copy fits before it is made.
		size := s.Len()
		if !s.IsASCII() {
			size *= 3
		}
		if s.IsASCII() && size > value.MaxArrayLength {
			r.ThrowRange(allocFailed)
		}
		r.Tick(size)
		r.Reserve(128 + size)
		return value.Obj(newU8Bytes(r, utf8Bytes(s)))
	}),
	native("TextEncoder.prototype.encodeInto", 2, func(r *value.Realm, c *value.Call) value.Value {
		thisEncoder(r, c)
		s := r.ToString(c.Arg(0))
		dest := asU8(c.Arg(1))
		if dest == nil {
			throwCoded(r, value.TypeError, "ERR_INVALID_ARG_TYPE", `The "dest" argument must be an instance of Uint8Array. `+received(r, c.Arg(1)))
		}
		out := dest.bytes()
		r.Tick(min(s.Len(), len(out)))
		read, written := 0, 0
		var tmp [4]byte
		for i := 0; i < s.Len(); {
			cp, units := codePointAt(s, i)
			n := utf8.EncodeRune(tmp[:], cp)
			if written+n > len(out) {
				break
			}
			copy(out[written:], tmp[:n])
			written += n
			read += units
			i += units
		}
		return readWritten(r, read, written)
	}),
}

// codePointAt returns the code point at i and how many code units it
// takes; a lone surrogate reads as U+FFFD.
func codePointAt(s *value.String, i int) (rune, int) {
	u := rune(s.At(i))
	if utf16.IsSurrogate(u) {
		if u < 0xDC00 && i+1 < s.Len() {
			if lo := rune(s.At(i + 1)); lo >= 0xDC00 && lo <= 0xDFFF {
				return utf16.DecodeRune(u, lo), 2
			}
		}
		return utf8.RuneError, 1
	}
	return u, 1
}

// utf8Bytes encodes a string as UTF-8, lone surrogates as U+FFFD.
func utf8Bytes(s *value.String) []byte { return []byte(s.String()) }

// utf8Labels are the Encoding standard's labels of UTF-8.
var utf8Labels = map[string]bool{"unicode-1-1-utf-8": true, "unicode11utf8": true, "unicode20utf8": true,
	"utf-8": true, "utf8": true, "x-unicode20utf8": true}

func decoderCtor(r *value.Realm, c *value.Call) value.Value {
	requireNew(r, c, "TextDecoder")
	if l := c.Arg(0); !l.IsUndefined() {
		label := usv(r, l)
		if !utf8Labels[strings.ToLower(strings.Trim(label, "\t\n\f\r "))] {
			throwCoded(r, value.RangeError, "ERR_ENCODING_NOT_SUPPORTED", `The "`+label+`" encoding is not supported`)
		}
	}
	d := &textDecoderData{}
	if opts := c.Arg(1); !opts.IsNullish() {
		if !opts.IsObject() {
			throwCoded(r, value.TypeError, "ERR_INVALID_ARG_TYPE", `The "options" argument must be of type object. `+received(r, opts))
		}
		d.fatal = r.Get(opts, "fatal").ToBoolean()
		d.ignoreBOM = r.Get(opts, "ignoreBOM").ToBoolean()
	}
	o := value.NewObject(r.ProtoFromCtor(c.NewTarget, value.TextDecoderPrototype))
	o.Internal = d
	r.Charge(96)
	return value.Obj(o)
}

func thisDecoder(r *value.Realm, c *value.Call) *textDecoderData {
	if o := c.This.AsObject(); o != nil {
		if d, ok := o.Internal.(*textDecoderData); ok {
			return d
		}
	}
	throwCoded(r, value.TypeError, "ERR_INVALID_THIS", `Value of "this" must be of type TextDecoder`)
	return nil
}

var (
	decoderEncoding = native("TextDecoder.prototype.get encoding", 0, func(r *value.Realm, c *value.Call) value.Value {
		thisDecoder(r, c)
		return value.StrOf("utf-8")
	})
	decoderFatal = native("TextDecoder.prototype.get fatal", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.Bool(thisDecoder(r, c).fatal)
	})
	decoderIgnoreBOM = native("TextDecoder.prototype.get ignoreBOM", 0, func(r *value.Realm, c *value.Call) value.Value {
		return value.Bool(thisDecoder(r, c).ignoreBOM)
	})
)

var decoderProto = []*value.Native{
	native("TextDecoder.prototype.decode", 0, func(r *value.Realm, c *value.Call) value.Value {
		d := thisDecoder(r, c)
		in := c.Arg(0)
		var b []byte
		if !in.IsUndefined() {
			u := asU8(in)
			if u == nil {
				throwCoded(r, value.TypeError, "ERR_INVALID_ARG_TYPE", `The "list" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView.`)
			}
			b = u.bytes()
		}
		if opts := c.Arg(1); !opts.IsNullish() && !opts.IsObject() {
			throwCoded(r, value.TypeError, "ERR_INVALID_ARG_TYPE", `The "options" argument must be of type object. `+received(r, opts))
		}
		if !d.ignoreBOM && len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
			b = b[3:]
		}
		r.Tick(len(b))
		r.Reserve(48 + 2*len(b))
		out, ok := decodeUTF8(b, d.fatal)
		if !ok {
			throwCoded(r, value.TypeError, "ERR_ENCODING_INVALID_ENCODED_DATA", "The encoded data was not valid for encoding utf-8")
		}
		r.Charge(2 * len(out))
		return value.Str(value.FromUTF16(out))
	}),
}

// decodeUTF8 is the Encoding standard's UTF-8 decoder; with fatal, the
// first error stops it (ok false).
func decodeUTF8(b []byte, fatal bool) ([]uint16, bool) {
	out := make([]uint16, 0, len(b))
	needed, seen := 0, 0
	var cp rune
	lower, upper := byte(0x80), byte(0xBF)
	for i := 0; i < len(b); i++ {
		x := b[i]
		if needed == 0 {
			switch {
			case x < 0x80:
				out = append(out, uint16(x))
			case x >= 0xC2 && x <= 0xDF:
				needed, cp = 1, rune(x&0x1F)
			case x >= 0xE0 && x <= 0xEF:
				if x == 0xE0 {
					lower = 0xA0
				} else if x == 0xED {
					upper = 0x9F
				}
				needed, cp = 2, rune(x&0xF)
			case x >= 0xF0 && x <= 0xF4:
				if x == 0xF0 {
					lower = 0x90
				} else if x == 0xF4 {
					upper = 0x8F
				}
				needed, cp = 3, rune(x&7)
			default:
				if fatal {
					return nil, false
				}
				out = append(out, 0xFFFD)
			}
			continue
		}
		if x < lower || x > upper {
			needed, seen, cp = 0, 0, 0
			lower, upper = 0x80, 0xBF
			if fatal {
				return nil, false
			}
			out = append(out, 0xFFFD)
			i-- // the byte starts over
			continue
		}
		lower, upper = 0x80, 0xBF
		cp = cp<<6 | rune(x&0x3F)
		seen++
		if seen == needed {
			out = utf16.AppendRune(out, cp)
			needed, seen, cp = 0, 0, 0
		}
	}
	if needed != 0 {
		if fatal {
			return nil, false
		}
		out = append(out, 0xFFFD)
	}
	return out, true
}
