// Package openapi turns an OpenAPI 3.0 or 3.1 description into tools: one
// tool per operation, in a namespace a host puts under a name of its
// choosing, with authentication the model never sees.
//
//	api, err := openapi.LoadFile("github.yaml", openapi.Options{
//		Auth: openapi.BearerToken(os.Getenv("GITHUB_TOKEN")),
//	})
//	rt, err := codemode.New(codemode.Options{Tools: map[string]any{"github": api.Namespace()}})
//	// the program: await tools.github.issues.list({ owner: "go", repo: "go", state: "open" })
//
// Load reads JSON or YAML (LoadFile a file, FromDocument a document
// kin-openapi has loaded). A document that is not OpenAPI 3 at all is an
// error; a document with problems still converts as far as it can, its
// problems listed in API.Warnings (kin-openapi's validator) and the
// operations it cannot call faithfully in API.Skipped, each with its
// reason.
//
// # Reference behaviour
//
// The conversion follows @opencode/codemode's OpenAPI.fromSpec (1066927),
// with its exact names, shapes and messages:
//
//   - Operations: every paths[p][m] for the eight HTTP methods. Checks run
//     output, base URL, input, security; the first failure skips the
//     operation with reasons such as "SSE operations are not supported",
//     "binary responses are not supported", "request body has no JSON
//     content (declared: multipart/form-data)", "parameter 'q' uses
//     unsupported allowReserved encoding" or "security requirement
//     references missing or malformed scheme: oauth". Skipped operations
//     reserve no names.
//   - Names: the operationId split on "." (dots make namespaces), each
//     segment with runs of characters other than [A-Za-z0-9_$] turned to
//     "_", edge underscores trimmed, "_" before a leading digit, "operation"
//     for an empty one ("group..other" is group.operation.other). Without
//     an operationId: the camelCase of the method and the path's words, a
//     {param} reading "by param" (GET /users/{id} is getUsersById). A name
//     whose prefix is already a tool merges that segment with the next
//     (users then users.get gives usersGet); any other clash becomes the
//     segments joined with "_" plus "_2", "_3", ...
//   - Description: the operation's description, else its summary, else
//     "GET /path".
//   - Input: one object. Path parameters (always required), then query,
//     header (except Accept, Content-Type and Authorization) and cookie
//     ones, an operation's parameters replacing the path item's of the
//     same location and name; then the body from the first JSON media type
//     (application/json or any +json). A required body whose schema is a
//     closed object (type object, properties, additionalProperties false,
//     not nullable, no allOf/anyOf/oneOf) is flattened into top-level
//     fields; any other body is one field, "body". Names that clash across
//     locations become path_id, query_id, header_id, body_id, then _2, _3.
//   - Schemas: request schemas lose readOnly properties and response
//     schemas writeOnly ones, through $ref, allOf and cycles, required
//     lists following; OpenAPI 3.0 schemas are made JSON Schema (nullable
//     becomes a null type); component references become "#/$defs/X" with
//     the components a schema reaches under $defs.
//   - Output: the 2xx responses (exact codes in order, then 2XX); no
//     content is null, a non-JSON media type a string, several outcomes an
//     anyOf. A JSON response without a schema leaves the output undeclared
//     (the program then receives undefined, as in the reference).
//   - Base URL: Options.BaseURL, else the operation's servers, the path
//     item's, the document's (the first entry); it must be an absolute
//     http(s) URL without query or fragment; the path is appended.
//   - Requests: path values percent-encoded as encodeURIComponent does
//     plus !'()*; "", "." and ".." rejected; query pairs encoded as
//     URLSearchParams does; form arrays repeated (explode) or joined with
//     commas, exploded objects as k=v pairs, deepObject as name[k]=v;
//     headers in simple style; static headers, then declared header
//     parameters, then authentication (which wins). Every check runs
//     before authentication and the network, with the reference's
//     messages ("Missing required path parameter 'id'.", "Parameter 'tags'
//     contains an unsupported nested value.", ...).
//   - Authentication: the operation's security (or the document's) is a
//     list of alternatives; the AuthResolver is asked for each scheme of
//     an alternative in turn, and the first alternative it fully answers
//     is used ({} needs nothing). Bearer and basic go in Authorization, an
//     apiKey where its scheme says (header or query), a Header credential
//     as named.
//   - Responses: JSON media types parsed (an empty body is null), other
//     media kept as text; a non-2xx status fails the call with "GET /p
//     failed with HTTP 404: <body, 1024 characters at most>"; a transport
//     failure with "GET /p failed: transport error"; a body over 50 MiB
//     with "GET /p response exceeds 50 MiB.".
//
// # Beyond the reference
//
//   - YAML documents, and kin-openapi's validation as warnings.
//   - Content negotiation: a response that offers JSON alongside other
//     media types (XML, an event stream) is taken as JSON, and the request
//     says so with an Accept header. The reference skips such operations
//     as binary or SSE, which leaves most of the Petstore out.
//   - A response without a Content-Type is parsed as JSON when every 2xx
//     media type of the operation is JSON and the body is valid JSON.
//   - application/x-www-form-urlencoded bodies when no JSON one is
//     declared.
//   - Cookie parameters (form style), path label and matrix styles, query
//     spaceDelimited and pipeDelimited styles.
//   - Server URL variables, from Options.ServerVariables or their
//     defaults; path keys holding a query string ("/responses?beta=true").
//   - Options.MaxResponseBytes, Options.Timeout, Options.Decorate (a last
//     look at each request: signing, extra tokens), an *http.Client of the
//     host's.
//   - Schemas the 2020-12 meta-schema would reject are mended where the
//     intent is plain (duplicate required entries, boolean
//     exclusiveMinimum, 2019-09 $recursiveRef); each tool's schemas are
//     compiled as tools.New compiles them, and an operation whose schema
//     still does not compile is skipped (reason "input schema: ...")
//     instead of failing the whole tree.
//   - $defs hold only the components a schema reaches (the reference puts
//     every component in every tool).
//   - Errors carry the status, the body summary and the cause (*Error).
//     An HTTP failure's ErrorFields give the program's error status,
//     statusText, body (parsed JSON or text) and headers (none that could
//     carry a credential), so `catch (e) { if (e.status === 404) ... }`
//     works.
//   - Options.Headers or Options.Decorate take charge of authentication:
//     a credential Options.Auth cannot give is then no error. Auth may
//     answer any scheme with any kind of credential.
//   - Options.HideParameters keeps parameters the host fills from the
//     model.
//
// Not supported, as in the reference: multipart and other non-JSON
// bodies, binary responses, SSE and WebSocket operations, parameters with
// content or allowReserved, cookie authentication, external $refs,
// response validation.
package openapi
