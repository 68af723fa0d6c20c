// Package web embeds the SvelteKit build output (web/build) into the Go binary.
// Run `npm run build` in this directory before `go build`.
package web

import "embed"

//go:embed all:build
var Build embed.FS
