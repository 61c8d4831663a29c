// Package e2e holds the end-to-end test of the plugin with the real Claude
// Code client (claude_test.go, build tag e2e, so `go test ./...` leaves it
// out; CI runs it as its own step):
//
//	go test -tags e2e -count=1 ./e2e
//
// goinstall_test.go (also tag e2e) runs `go install …/cmd/orc-state@VERSION`
// from a module proxy made of files and checks what `orc-state version` says.
//
// launcher_test.go tests the plugin's launcher (bin/orc-state) with stand-in
// binaries and a stand-in go, and fetch_test.go its download against a
// release server on 127.0.0.1 (good, tampered, truncated, missing and
// stalled archives, no downloader, no sums, ten launchers at once); both run
// in `go test ./...`. nogo_test.go (tag e2e) runs the real client with no Go
// on any PATH, the launcher installing the release from such a server.
//
// The end-to-end test installs the pinned client from the npm registry into a cache dir
// (package client), answers it with a mock of the Messages API on 127.0.0.1
// (package mockapi) that logs every request, and asserts from those
// requests and the files what the hooks did.
package e2e
