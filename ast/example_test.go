package ast_test

import (
	"errors"
	"fmt"

	"github.com/go-codemode/codemode/ast"
)

// Parse a model's program and list the host globals it needs.
func ExampleParse() {
	prog, err := ast.Parse(`
const [user, orders] = await Promise.all([
  tools.crm.getUser({ id: 7 }),
  tools.shop.listOrders({ userId: 7 }),
]);
console.log(user.name);
return orders.items.length;
`)
	if err != nil {
		panic(err)
	}
	fmt.Println(prog.Globals)
	// Output: [Promise console tools]
}

// A syntax error says what is wrong and where, in the text the model sent.
func ExampleParse_error() {
	text := "const items = [];\nitems.push({ id: 1 } { id: 2 });"
	_, err := ast.Parse(text)
	var perr *ast.Error
	if errors.As(err, &perr) {
		fmt.Println(perr)
		fmt.Println(ast.NewSource(text).Snippet(perr.Pos))
	}
	// Output:
	// Unexpected token '{' (line 2, col 22)
	// items.push({ id: 1 } { id: 2 });
	//                      ^
}

// Normalize strips what models wrap programs in, keeping positions.
func ExampleNormalize() {
	src := ast.Normalize("```js\nasync () => {\n  return 42\n}\n```")
	fmt.Printf("%q\n", src.Text[src.Start:src.End])
	// Output: "\n  return 42\n"
}

// Print writes a tree back as source, with the parentheses it needs.
func ExamplePrint() {
	x, err := ast.ParseExpression("(a ?? b) || (-x) ** 2")
	if err != nil {
		panic(err)
	}
	fmt.Println(ast.Print(x))
	// Output: (a ?? b) || (-x) ** 2
}

// TypeScript's types are erased: the tree is the JavaScript one, and
// positions point into the text as written.
func ExampleParse_typeScript() {
	prog, _ := ast.Parse("const n: number = (await tools.count()) as number\nreturn n!")
	fmt.Print(ast.Print(prog))
	// Output:
	// const n = await tools.count();
	// return n;
}

// With NoTypeScript, TypeScript is refused with a message that names it.
func ExampleParseWith_noTypeScript() {
	_, err := ast.ParseWith("const n: number = await tools.count()", ast.Options{NoTypeScript: true})
	fmt.Println(err)
	// Output: TypeScript syntax is not accepted (type annotation); write plain JavaScript (line 1, col 8)
}
