// Command splendorctl holds the project's tools: play prints one seeded game
// between random players, trace writes games as JSON Lines for checking and
// for training data, bench measures env-steps per second, load drives a
// running server with many clients.
package main

import (
	"errors"
	"fmt"
	release "github.com/splendor-rl/splendor/cmd/internal/version"
	"io"
	"os"
	"strings"
)

// version is what --version prints (and the server's hello announces).
const version = release.Version

// commands lists every command and what it does, for the usage texts. It
// names no functions, so that the commands may read it (see summary).
var commands = []struct{ name, summary string }{
	{"play", "Play one seeded game of Splendor or Splendor Duel between random players, printed."},
	{"trace", "Write seeded games between random players as JSON Lines (docs/trace.md)."},
	{"bench", "Measure env-steps per second, in process or through a loopback server."},
	{"load", "Drive a running server with many clients: throughput, latency, memory (docs/load.md)."},
	{"version", "Print splendorctl's version."},
	{"help", "Print this help, or a command's: splendorctl help <command>."},
}

func summary(name string) string {
	for _, c := range commands {
		if c.name == name {
			return c.summary
		}
	}
	return ""
}

func usage() string {
	var b strings.Builder
	b.WriteString("usage: splendorctl <command> [flags]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-8s %s\n", c.name, c.summary)
	}
	b.WriteString("\nflags:\n  -h, --help      print this help and exit\n      --version   print the version and exit\n")
	b.WriteString("\nexamples:\n  splendorctl play --game duel --seed 3\n  splendorctl trace --games 10 > games.jsonl\n")
	b.WriteString("\nRun 'splendorctl <command> --help' for a command's flags. Flags are GNU style: --seed 3 or --seed=3.\n")
	return b.String()
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "splendorctl:", err)
		var bad *usageError
		if errors.As(err, &bad) {
			fmt.Fprint(os.Stderr, "\n", bad.usage)
		}
		os.Exit(2)
	}
}

// run runs the command line args (without the program name), writing its
// output, help included, to out.
func run(args []string, out io.Writer) error {
	if len(args) == 0 {
		return &usageError{err: errors.New("no command"), usage: usage()}
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
	case "version", "--version":
		_, err := fmt.Fprintf(out, "splendorctl %s\n", version)
		return err
	case "help", "-h", "--help":
		return help(args[1:], out)
	}
	return &usageError{err: fmt.Errorf("unknown command %q", args[0]), usage: usage()}
}

// help prints the usage, or with a command name that command's help.
func help(args []string, out io.Writer) error {
	if len(args) > 0 && summary(args[0]) != "" && args[0] != "help" && args[0] != "version" {
		return run([]string{args[0], "--help"}, out)
	}
	_, err := fmt.Fprint(out, usage())
	return err
}
