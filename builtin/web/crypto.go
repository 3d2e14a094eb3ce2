package web

// crypto: randomUUID and getRandomValues from crypto/rand. crypto.subtle
// is not provided.

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/go-codemode/codemode/value"
)

func installCrypto(l *value.Library) {
	l.Intrinsic(value.CryptoObject, value.IntrinsicSpec{Name: "crypto",
		Init: func(r *value.Realm, o *value.Object) {
			r.Methods(o, cryptoMethods)
			toStringTag(o, "Crypto")
		}})
	l.GlobalIntrinsic("crypto", value.CryptoObject)
	l.Register(cryptoMethods...)
}

func thisCrypto(r *value.Realm, c *value.Call) {
	if c.This.AsObject() != r.Intrinsic(value.CryptoObject) {
		throwCoded(r, value.TypeError, "ERR_INVALID_THIS", `Value of "this" must be of type Crypto`)
	}
}

// maxRandomBytes is the most getRandomValues fills at once.
const maxRandomBytes = 65536

var cryptoMethods = []*value.Native{
	native("crypto.getRandomValues", 1, func(r *value.Realm, c *value.Call) value.Value {
		thisCrypto(r, c)
		if len(c.Args) == 0 {
			throwCoded(r, value.TypeError, "ERR_MISSING_ARGS", "Failed to execute 'getRandomValues' on 'Crypto': 1 argument required, but only 0 present.")
		}
		d := asU8(c.Args[0])
		if d == nil {
			throwCoded(r, value.TypeError, "ERR_INVALID_ARG_TYPE", "Failed to execute 'getRandomValues' on 'Crypto': 1st argument is not an ArrayBufferView.")
		}
		if d.n > maxRandomBytes {
			throwDOM(r, "QuotaExceededError", 22, "The requested length exceeds 65,536 bytes")
		}
		_, _ = rand.Read(d.bytes())
		return c.Args[0]
	}),
	native("crypto.randomUUID", 0, func(r *value.Realm, c *value.Call) value.Value {
		thisCrypto(r, c)
		var b [16]byte
		_, _ = rand.Read(b[:])
		b[6] = b[6]&0x0F | 0x40 // version 4
		b[8] = b[8]&0x3F | 0x80 // RFC 4122 variant
		h := hex.EncodeToString(b[:])
		return value.StrOf(h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32])
	}),
}
