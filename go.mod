module github.com/go-codemode/codemode

go 1.26.0

require (
	github.com/dlclark/regexp2 v1.12.0
	github.com/tdewolff/parse/v2 v2.8.20
	golang.org/x/text v0.44.0
)

require go.yaml.in/yaml/v3 v3.0.6 // indirect
