package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// flagSet is one command's flags, GNU style (--seed 1) and typed, so that a
// value of the wrong type is refused before the command runs, plus -h/--help.
type flagSet struct {
	*pflag.FlagSet
	help *bool
}

func newFlagSet(name string) *flagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	// pflag would print errors to stderr itself; the command returns them
	// instead, so that run stays testable and main prints them once.
	fs.SetOutput(io.Discard)
	fs.SortFlags = false // the order the command declares them in: the most used first
	return &flagSet{FlagSet: fs}
}

// parse reads args. done is true when the command must stop: with a nil error
// after printing its help to out, or with a usage error.
func (f *flagSet) parse(args []string, out io.Writer) (done bool, err error) {
	f.help = f.BoolP("help", "h", false, "print this help and exit") // declared last: listed last
	if err := f.Parse(args); err != nil {
		return true, f.bad(withDashHint(err, args))
	}
	if *f.help {
		_, err := fmt.Fprint(out, f.usage())
		return true, err
	}
	if f.NArg() > 0 {
		return true, f.bad(fmt.Errorf("unexpected argument %q", f.Arg(0)))
	}
	return false, nil
}

// withDashHint explains the usual cause of "unknown shorthand flag": a long
// flag written with Go's single dash (-seed), which pflag reads as -s -e….
func withDashHint(err error, args []string) error {
	for _, a := range args {
		if a == "--" {
			break
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.Contains(err.Error(), a) {
			return fmt.Errorf("%w (long flags take two dashes: -%s)", err, a)
		}
	}
	return err
}

func (f *flagSet) usage() string {
	return fmt.Sprintf("usage: splendorctl %s [flags]\n\n%s\n\nflags:\n%s", f.Name(), summary(f.Name()), f.FlagUsages())
}

// bad is a flag the command cannot run with: main prints the error, then
// the command's usage.
func (f *flagSet) bad(err error) error { return &usageError{err: err, usage: f.usage()} }

// badf is bad with a message of its own.
func (f *flagSet) badf(format string, args ...any) error { return f.bad(fmt.Errorf(format, args...)) }

// usageError is a command line that could not run; usage is the help of the
// command it was meant for.
type usageError struct {
	err   error
	usage string
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }
