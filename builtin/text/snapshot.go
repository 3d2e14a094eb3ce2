package text

import (
	"github.com/go-codemode/codemode/internal/snapshot"
)

// SnapshotTypes registers the types of this package that a saved run's
// heap holds: a RegExp is saved as its pattern and flags and compiled
// again (its lastIndex is an ordinary property); its matching iterator.
func SnapshotTypes(reg *snapshot.Registry) {
	snapshot.Register[*RegExpData](reg, "text.RegExpData", snapshot.Custom(
		func(e *snapshot.Encoder, d *RegExpData) {
			e.String(d.Regexp.Pattern())
			e.String(d.Regexp.Flags())
		},
		func(d *snapshot.Decoder, rd *RegExpData) {
			pattern, flags := d.String(), d.String()
			nd, err := NewRegExpData(pattern, flags)
			if err != nil {
				d.Malformed("the regular expression /%s/%s does not compile: %v", pattern, flags, err)
			}
			*rd = *nd
		}))
	snapshot.Register[*RegExpStringIter](reg, "text.RegExpStringIter")
}
