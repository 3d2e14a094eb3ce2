package ast_test

import (
	"fmt"

	"github.com/go-codemode/codemode/ast"
)

// Link a program in the seed's form (imports, then one async arrow) with
// the module map it imports from. The result is one ordinary program:
// each module becomes a constant with a hidden name (@helpers), read by
// the program's imports.
func ExampleLink() {
	modules := map[string]ast.ModuleSource{
		"helpers":     {Kind: "js", Text: "export const slugify = s => s.toLowerCase().replace(/ /g, '-')"},
		"config.json": {Kind: "json", Text: `{"title": "Code Mode"}`},
	}
	prog, err := ast.Link(`import { slugify } from "helpers"
import config from "config.json"
async () => {
  return slugify(config.title)
}`, modules, ast.LinkOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(ast.Print(prog))
	// Output:
	// const @helpers = function() {
	//   const slugify = (s) => s.toLowerCase().replace(/ /g, '-');
	//   return {
	//     __proto__: null,
	//     get slugify() {
	//       return slugify;
	//     }
	//   };
	// }();
	// const @config.json = {
	//   "title": "Code Mode"
	// };
	// const slugify = @helpers.slugify;
	// const config = @config.json;
	// return slugify(config.title);
}

// An error inside a module names the module, and its line and column are
// in the module's own text.
func ExampleLink_error() {
	modules := map[string]ast.ModuleSource{
		"helpers": {Kind: "js", Text: "export function slugify(s) {\n  return s.replace(/ /g, '-'\n}"},
	}
	_, err := ast.Link(`import { slugify } from "helpers"; return slugify("A B")`, modules, ast.LinkOptions{})
	fmt.Println(err)
	_, err = ast.Link(`import { slugify } from "helpers"; return slugify("A B")`, map[string]ast.ModuleSource{
		"helpers": {Kind: "js", Text: "export const slug = s => s"},
	}, ast.LinkOptions{})
	fmt.Println(err)
	// Output:
	// Module "helpers": Unexpected token '}' (line 3, col 1 of module "helpers")
	// The requested module 'helpers' does not provide an export named 'slugify' (line 1, col 10)
}
