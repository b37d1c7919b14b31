// Command splendorctl holds the project's tools: play prints one seeded game
// between random players, trace writes games as JSON Lines for checking and
// for training data, bench measures env-steps per second, load drives a
// running server with many clients.
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `usage: splendorctl <command> [flags]

commands:
  play   play one seeded game between random players and print it
  trace  write seeded random games as JSON Lines (docs/trace.md)
  bench  measure env-steps per second (--mode inproc)
  load   drive a running server with many clients; throughput, latency, memory (docs/load.md)

run 'splendorctl <command> -h' for a command's flags`

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "splendorctl:", err)
		os.Exit(2)
	}
}

func run(args []string, out io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("no command\n%s", usage)
	}
	switch args[0] {
	case "play":
		return play(args[1:], out)
	case "trace":
		return trace(args[1:], out)
	case "bench":
		return bench(args[1:], out)
	case "load":
		return load(args[1:], out)
	case "help", "-h", "--help":
		fmt.Fprintln(out, usage)
		return nil
	}
	return fmt.Errorf("unknown command %q\n%s", args[0], usage)
}
