// Command mockapi runs the mock Messages API (package e2e/mockapi) by hand,
// for exploring what the Claude Code client sends:
//
//	go run ./e2e/cmd/mockapi -addr 127.0.0.1:8765 -log /tmp/requests.jsonl
//
// then run claude with ANTHROPIC_BASE_URL=http://127.0.0.1:8765.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/orc-state/orc-state/e2e/mockapi"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address (loopback only)")
	logPath := flag.String("log", "requests.jsonl", "JSON Lines file to append each request to")
	flag.Parse()
	s, err := mockapi.Start(*addr, *logPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mockapi:", err)
		os.Exit(1)
	}
	fmt.Println(s.URL)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	<-sig
	s.Close()
}
