package snapfile_test

import (
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/go-codemode/codemode/internal/snapfile"
)

// A state written with a key reads back only with that key.
func Example() {
	key := []byte("keep this secret")
	h := snapfile.Header{
		Build:       "v0.1.0+3f2a",
		Engine:      "vm",
		ProgramHash: sha256.Sum256([]byte("return await tools.now()")),
		Sections:    []snapfile.Section{{Name: "heap", Size: 4}, {Name: "frames", Size: 2}},
	}
	data, err := snapfile.Write(h, []byte("heapfr"), snapfile.Options{Key: key, MaxBytes: 1 << 20})
	if err != nil {
		fmt.Println(err)
		return
	}

	got, body, err := snapfile.Read(data, snapfile.Options{Key: key, MaxBytes: 1 << 20})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Whether the state fits this build is the caller's check.
	fmt.Println(got.Sealed, got.Build == h.Build, got.ProgramHash == h.ProgramHash)
	fmt.Printf("%s %q\n", got.Sections[0].Name, body[:got.Sections[0].Size])

	_, _, err = snapfile.Read(data, snapfile.Options{Key: []byte("another key")})
	var e *snapfile.Error
	if errors.As(err, &e) {
		fmt.Println(e.Reason)
	}
	// Output:
	// true true true
	// heap "heap"
	// seal
}
