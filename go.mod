module github.com/go-codemode/codemode

go 1.26

require github.com/tdewolff/parse/v2 v2.8.20 // indirect
