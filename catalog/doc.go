// Package catalog renders tools' JSON Schemas as the TypeScript text a
// model reads: a tool's signature,
//
//	tools.github.list_issues({
//	  /** Repository owner */
//	  owner: string,
//	  /** Results per page. @default 30 */
//	  perPage?: number,
//	  state?: "open" | "closed",
//	}): Promise<unknown>
//
// and the types inside it, pretty (Render) or on one line (Compact).
//
// # Reference behaviour
//
// With the zero Options, a schema within the reference's vocabulary renders
// as the reference (@opencode/codemode tool-schema.ts) renders it, byte for
// byte (testdata/reference holds a corpus of its outputs):
//
//   - An object lists its properties in JavaScript's order (array-index
//     names such as "123" first, ascending, then the rest as written), each
//     on its own line at two spaces per level, with "?" when it is not
//     required and its name JSON-quoted when it is not an identifier. An
//     additionalProperties schema adds a [key: string]: T line. Values
//     nested in arrays and unions are indented one level further than their
//     position suggests, as in the reference.
//   - const is a JSON literal; enum a union of literals; anyOf/oneOf a union
//     (all-number alternatives, with Effect's "NaN"/"Infinity" strings, are
//     number; [{type: object}, {type: array}] is {}; any unknown
//     alternative makes it unknown); allOf an intersection, which is unknown
//     if any member reaches an unresolvable or cyclic $ref; type: [a, b] is
//     a | b; integer is number; an array is Array<T>; $ref to #/$defs/X or
//     #/definitions/X is resolved, its sibling keywords intersected, and a
//     cyclic, external or malformed one is unknown; Effect's empty-struct
//     marker {not: {type: "null"}} is {}; a schema nested more than eight
//     levels deep, and anything else, is unknown.
//   - Each property gets JSDoc from its description and the tags
//     @deprecated, @default, @format, @integer, @minimum, @maximum,
//     @exclusiveMinimum, @exclusiveMaximum, @multipleOf, @minLength,
//     @maxLength, @pattern, @minItems, @maxItems and @uniqueItems, in that
//     order, plus "Each item:" and "Each value:" lines for its immediate
//     items and dictionary values. A one-line description and its tags
//     share one line ("Results per page. @default 30") when it fits in 120
//     columns.
//
// Beyond the reference: OpenAPI 3.0's nullable: true adds | null; tuples
// (prefixItems, or items as an array) render as [A, B], with
// ...Array<T> for a schema allowing further items; an empty enum, anyOf,
// oneOf or type list is never (the reference printed an empty type). Keywords
// of the wrong JSON type (a string properties, a non-array required, a null
// subschema) are ignored where the reference would have failed the whole
// render to unknown. A schema whose definitions expand exponentially stops
// after 50,000 schema nodes, the rest rendering as unknown.
//
// # Size budget
//
// Large APIs have large schemas: the OpenAI API's CreateResponse request
// body renders to about 60,000 characters, its largest component to 635,000. Options cut a render down; each cut
// leaves a marker, always containing "…", so the model can tell that what it
// reads is partial and what is missing:
//
//	/** Number between -2.0 and 2.0. Positive values… @minimum -2 */
//	    a description cut to MaxDescription (or by the budget) ends in "…";
//	    it becomes one line, and no "." is added before the tags.
//	filter?: { /* … 3 properties: query, page?, tags? */ },
//	    an object below MaxDepth: its property count and names (up to 8,
//	    "?" for optional ones), and "[key: string]: …" for a dictionary.
//	// … 12 more properties: temperature?, top_p?, user?, …
//	    the last line of an object showing only MaxProperties properties
//	    (required ones are kept first); in the compact form the same text
//	    is a /* … */ entry.
//	"auto" | "low" /* … 3 more values */
//	A | B /* … 5 more alternatives */
//	    an enum or a union cut to MaxProperties (at least two kept).
//
// Names in markers are written as in the type (quoted when needed, "?"
// when optional), and "*/" inside them is broken up so no marker or JSDoc
// can end its comment early.
package catalog
