package jsnum_test

import (
	"fmt"

	"github.com/go-codemode/codemode/internal/jsnum"
)

func ExampleFormat() {
	for _, x := range []float64{1e21, 1e20, 0.000001, 1e-7, 123e-20, 0.30000000000000004} {
		fmt.Println(jsnum.Format(x))
	}
	// Output:
	// 1e+21
	// 100000000000000000000
	// 0.000001
	// 1e-7
	// 1.23e-18
	// 0.30000000000000004
}

func ExampleFormatRadix() {
	fmt.Println(jsnum.FormatRadix(255.5, 16))
	fmt.Println(jsnum.FormatRadix(0.5, 2))
	fmt.Println(jsnum.FormatRadix(-10, 36))
	// Output:
	// ff.8
	// 0.1
	// -a
}

func ExampleToFixed() {
	s, _ := jsnum.ToFixed(1.005, 2) // 1.005 is really 1.00499999999999989...
	fmt.Println(s)
	s, _ = jsnum.ToFixed(2.5, 0) // exact ties round away from zero
	fmt.Println(s)
	_, ok := jsnum.ToFixed(1, 101)
	fmt.Println(ok) // the caller throws a RangeError
	// Output:
	// 1.00
	// 3
	// false
}

func ExampleToPrecision() {
	s, _ := jsnum.ToPrecision(0.000001, 2)
	fmt.Println(s)
	s, _ = jsnum.ToPrecision(123.456, 2)
	fmt.Println(s)
	// Output:
	// 0.0000010
	// 1.2e+2
}

func ExampleToExponential() {
	s, _ := jsnum.ToExponential(123.456, 0, false) // fractionDigits undefined
	fmt.Println(s)
	s, _ = jsnum.ToExponential(123.456, 2, true)
	fmt.Println(s)
	// Output:
	// 1.23456e+2
	// 1.23e+2
}

func ExampleParse() {
	fmt.Println(jsnum.Parse(" 0x1F\n"), jsnum.Parse(""), jsnum.Parse(".5e1"), jsnum.Parse("1_000"))
	// Output: 31 0 5 NaN
}

func ExampleParseInt() {
	fmt.Println(jsnum.ParseInt("  -12px", 0), jsnum.ParseInt("0x1f", 0), jsnum.ParseInt("z", 36), jsnum.ParseInt("9", 8))
	// Output: -12 31 35 NaN
}

func ExampleParseFloat() {
	fmt.Println(jsnum.ParseFloat("3.14abc"), jsnum.ParseFloat("-Infinityx"), jsnum.ParseFloat("0x10"))
	// Output: 3.14 -Inf 0
}

func ExampleToInt32() {
	fmt.Println(jsnum.ToInt32(2147483648), jsnum.ToInt32(-1.9), jsnum.ToUint32(-1))
	// Output: -2147483648 -1 4294967295
}

func ExampleToIntegerOrInfinity() {
	fmt.Println(jsnum.ToIntegerOrInfinity(-0.5), jsnum.ToIntegerOrInfinity(2.7))
	// Output: 0 2
}
