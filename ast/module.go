package ast

// Module syntax. Link (link.go) parses the program and the modules of a
// module map with the same parser, in one of three modes:
//
//   - the program (unitEntry): the body of an async function, which may
//     import but not export;
//   - an ES module (unitJS): import and export at the top level, top-level
//     await, no top-level return;
//   - a CommonJS module (unitCJS): the body of a plain function, where
//     return is allowed and await is not, with require instead of import.
//
// An export declaration is read into an exportDecl. Link turns each into
// plain declarations before anything resolves the tree, so neither the
// resolver nor an engine ever sees one.

import (
	"github.com/tdewolff/parse/v2/js"
)

// unitKind is what the parser is reading: the program or a kind of module.
type unitKind uint8

const (
	unitEntry unitKind = iota
	unitJS
	unitCJS
)

// exportDecl is an export declaration of an ES module. Exactly one of
// these forms:
//
//	export <declaration>              Decl (var, let, const, function, class)
//	export default function|class ... Decl, Default set; an anonymous one is named "default"
//	export default <expression>       Value, Default set
//	export { a, b as c }              Specs
//	export { a as b } from "m"        Specs, From
//	export * from "m"                 Star, From
//	export * as ns from "m"           Star, As, From
type exportDecl struct {
	At
	Decl    Stmt
	Default bool
	Value   Expr
	Specs   []*exportSpec
	Star    bool
	As      *Name
	From    *StringLit
	Type    string // the type import attribute of From
}

// exportSpec is one `Local as Exported` of an export list. Local is the
// name of a binding of the module, or, with from, an export of the other
// module.
type exportSpec struct {
	At
	Local, Exported *Name
}

func (*exportDecl) stmtNode() {}

// checkImportAllowed fails at an import declaration where this unit
// allows none.
func (p *parser) checkImportAllowed(topLevel bool) {
	switch {
	case p.unit == unitCJS:
		p.failAt(p.pos, "Cannot use import statement in a CommonJS module; use require() instead")
	case !topLevel && p.unit == unitJS:
		p.failAt(p.pos, "Cannot use import statement outside the top level of a module")
	case !topLevel:
		p.failAt(p.pos, "Cannot use import statement outside the top level of the program")
	}
}

// exportNotAllowed fails at an export keyword where this unit allows none.
func (p *parser) exportNotAllowed() {
	switch p.unit {
	case unitJS:
		p.failAt(p.pos, "'export' may only appear at the top level of a module")
	case unitCJS:
		p.failAt(p.pos, "'export' is not allowed in a CommonJS module; assign to module.exports instead")
	}
	p.failAt(p.pos, "'export' is not allowed: the program is the body of an async function; return the value instead")
}

// parseExport parses an export declaration at the top level of an ES
// module. It returns nil for a TypeScript declaration, which is erased.
func (p *parser) parseExport() Stmt {
	ex := &exportDecl{At: At{p.pos}}
	p.next() // export
	switch p.tt {
	case js.DefaultToken:
		ex.Default = true
		p.next()
		switch {
		case p.tt == js.FunctionToken:
			ex.Decl = p.parseDefaultFunction(false, p.pos)
		case p.tt == js.AsyncToken && p.peekIsWord("function"):
			start := p.pos
			p.next()
			ex.Decl = p.parseDefaultFunction(true, start)
		case p.tt == js.ClassToken:
			start := p.pos
			c := p.parseClass(false)
			if c.Name == nil {
				c.Name = &Ident{At: At{start}, Name: "default"}
			}
			ex.Decl = &ClassDecl{At: At{start}, Class: c}
		default:
			ex.Value = p.parseAssign(false, nil)
			p.semicolon()
		}
	case js.MulToken:
		ex.Star = true
		p.next()
		if p.eat(js.AsToken) {
			ex.As = p.parseExportName()
		}
		ex.From, ex.Type = p.parseFromClause()
	case js.OpenBraceToken:
		p.parseExportList(ex)
	default:
		if p.ts {
			if s, ok := p.tsStatement(true, false); ok {
				if s == nil {
					return nil // export interface, export declare, an overload: erased
				}
				ex.Decl = s
				break
			}
		}
		switch {
		case p.tt == js.VarToken:
			ex.Decl = p.parseVarStatement(DeclVar)
		case p.tt == js.ConstToken:
			ex.Decl = p.parseVarStatement(DeclConst)
		case p.tt == js.LetToken && p.letStartsDecl():
			ex.Decl = p.parseVarStatement(DeclLet)
		case p.tt == js.FunctionToken:
			ex.Decl = p.parseFunctionDecl(false, p.pos)
		case p.tt == js.AsyncToken && p.peekIsWord("function"):
			start := p.pos
			p.next()
			ex.Decl = p.parseFunctionDecl(true, start)
		case p.tt == js.ClassToken:
			ex.Decl = p.parseClassDecl()
		default:
			p.unexpected()
		}
		if ex.Decl == nil {
			return nil // a TypeScript overload signature
		}
	}
	switch ex.Decl.(type) {
	case nil, *VarDecl, *FuncDecl, *ClassDecl:
	default:
		p.failAt(ex.Start, "Unexpected token 'export'")
	}
	return ex
}

// parseDefaultFunction parses the function of `export default function`,
// whose name may be left out (the function is then named "default").
func (p *parser) parseDefaultFunction(async bool, start Pos) Stmt {
	if b, _ := p.peekByte(); b == '(' || b == '<' && p.ts || b == '*' && p.lookahead(func() bool {
		p.next() // function
		p.next() // *
		return p.tt == js.OpenParenToken
	}) {
		p.next() // function
		gen := p.eat(js.MulToken)
		fn := p.parseFunctionRest(start, FuncNormal, nil, async, gen, false)
		fn.Name = &Ident{At: At{start}, Name: "default"}
		return &FuncDecl{At: At{start}, Func: fn}
	}
	s := p.parseFunctionDecl(async, start)
	if s == nil {
		p.failAt(start, "Function implementation is missing after the overload signatures of the default export")
	}
	return s
}

// parseExportList parses { a, b as c } and an optional from clause.
func (p *parser) parseExportList(ex *exportDecl) {
	p.next() // {
	type local struct {
		str, reserved bool
		name          string
	}
	var locals []local
	for p.tt != js.CloseBraceToken {
		if p.ts && p.typeOnlySpecifier() {
			if !p.eat(js.CommaToken) {
				break
			}
			continue
		}
		spec := &exportSpec{At: At{p.pos}}
		var l local
		switch {
		case p.tt == js.StringToken:
			s := p.parseStringLit()
			spec.Local = &Name{At: At{s.Start}, Name: s.Value}
			l.str = true
		case js.IsIdentifierName(p.tt):
			spec.Local = &Name{At: At{p.pos}, Name: p.identName()}
			l.reserved = !p.isIdentToken() || p.tt == js.AwaitToken
			p.next()
		default:
			p.unexpected()
		}
		l.name = spec.Local.Name
		spec.Exported = spec.Local
		if p.eat(js.AsToken) {
			spec.Exported = p.parseExportName()
		}
		ex.Specs = append(ex.Specs, spec)
		locals = append(locals, l)
		if !p.eat(js.CommaToken) {
			break
		}
	}
	p.expect(js.CloseBraceToken)
	if p.tt == js.FromToken {
		ex.From, ex.Type = p.parseFromClause()
		return
	}
	for i, l := range locals {
		switch {
		case l.str:
			p.failAt(ex.Specs[i].Start, "A string literal cannot be used as an exported binding without 'from'")
		case l.reserved:
			p.failAt(ex.Specs[i].Start, "Unexpected reserved word '%s' in export", l.name)
		}
	}
	p.semicolon()
}

// parseExportName parses the name an export is known by outside: an
// identifier name (reserved words too) or a string.
func (p *parser) parseExportName() *Name {
	if p.tt == js.StringToken {
		s := p.parseStringLit()
		return &Name{At: At{s.Start}, Name: s.Value}
	}
	if !js.IsIdentifierName(p.tt) {
		p.unexpected()
	}
	n := &Name{At: At{p.pos}, Name: p.identName()}
	p.next()
	return n
}

// parseFromClause parses `from "module"`, its import attributes and the
// end of the statement.
func (p *parser) parseFromClause() (*StringLit, string) {
	if p.tt != js.FromToken {
		p.unexpected()
	}
	p.next()
	if p.tt != js.StringToken {
		p.unexpected()
	}
	s := p.parseStringLit()
	typ := p.parseImportAttributes()
	p.semicolon()
	return s, typ
}

// parseImportAttributes parses the import attributes that may follow a
// module name, with { type: "json" }, and returns the type. It is the only
// attribute there is.
func (p *parser) parseImportAttributes() string {
	if p.tt != js.WithToken || p.nl {
		return ""
	}
	p.next()
	p.expect(js.OpenBraceToken)
	typ := ""
	for p.tt != js.CloseBraceToken {
		start := p.pos
		var key string
		switch {
		case p.tt == js.StringToken:
			key = p.parseStringLit().Value
		case js.IsIdentifierName(p.tt):
			key = p.identName()
			p.next()
		default:
			p.unexpected()
		}
		p.expect(js.ColonToken)
		if p.tt != js.StringToken {
			p.unexpected()
		}
		value := p.parseStringLit().Value
		switch {
		case key != "type":
			p.failAt(start, "Import attribute '%s' is not supported; the only one is type", key)
		case typ != "":
			p.failAt(start, "Import attribute 'type' is given twice")
		case value == "":
			p.failAt(start, "Import attribute type cannot be empty")
		}
		typ = value
		if !p.eat(js.CommaToken) {
			break
		}
	}
	p.expect(js.CloseBraceToken)
	return typ
}
