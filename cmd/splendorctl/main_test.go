package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain lets the exit-status tests run this test binary as splendorctl
// itself: with runMainEnv set it is main, not the tests.
func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const runMainEnv = "SPLENDORCTL_TEST_RUN_MAIN"

var subcommands = []string{"play", "trace", "bench", "load"}

func runArgs(args ...string) (string, error) {
	var out bytes.Buffer
	err := run(args, &out)
	return out.String(), err
}

func TestHelpPrintsTheUsageAndSucceeds(t *testing.T) {
	out, err := runArgs("play", "--seed", "2", "-h")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(out, "usage: splendorctl play [flags]\n"), "help after other flags")
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"help", "nosuch"}} {
		out, err := runArgs(args...)
		require.NoError(t, err, "%v", args)
		assert.True(t, strings.HasPrefix(out, "usage: splendorctl <command>"), "%v: %s", args, out)
		for _, cmd := range subcommands {
			assert.Contains(t, out, "\n  "+cmd+" ", "%v", args)
		}
	}
	for _, cmd := range subcommands {
		for _, args := range [][]string{{cmd, "--help"}, {cmd, "-h"}, {"help", cmd}, {cmd, "--help=true"}} {
			out, err := runArgs(args...)
			require.NoError(t, err, "%v", args)
			assert.True(t, strings.HasPrefix(out, "usage: splendorctl "+cmd+" [flags]\n"), "%v: %s", args, out)
			assert.Contains(t, out, "-h, --help", "%v", args)
			assert.Contains(t, out, summary(cmd), "%v", args)
		}
	}
}

func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "version"} {
		out, err := runArgs(arg)
		require.NoError(t, err)
		assert.Equal(t, "splendorctl "+version+"\n", out)
	}
}

// A command line that cannot run is a usageError carrying the right
// command's usage, and prints nothing on standard output.
func TestBadCommandLinesAreUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{}, {"nosuch"}, {"play", "--nosuch"}, {"play", "extra"}, {"trace", "--games", "0"},
		{"bench", "--mode", "nosuch"}, {"load", "--clients", "0"}, {"play", "-seed", "3"},
	} {
		out, err := runArgs(args...)
		require.Error(t, err, "%v", args)
		var bad *usageError
		require.True(t, errors.As(err, &bad), "%v: %v", args, err)
		want := "usage: splendorctl <command>"
		if len(args) > 0 && summary(args[0]) != "" {
			want = "usage: splendorctl " + args[0] + " [flags]"
		}
		assert.True(t, strings.HasPrefix(bad.usage, want), "%v: %s", args, bad.usage)
		assert.Empty(t, out, "%v", args)
	}
}

// A Go-style single-dash long flag is refused with a hint at the fix.
func TestSingleDashLongFlagGetsAHint(t *testing.T) {
	_, err := runArgs("play", "-seed", "3")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--seed")
}

func TestTypedFlagsRefuseBadValues(t *testing.T) {
	for _, args := range [][]string{
		{"play", "--seed", "abc"}, {"play", "--seed", "-1"}, {"play", "--players", "two"},
		{"trace", "--games", "1.5"}, {"bench", "--seconds", "ten"}, {"load", "--verify=maybe"},
		{"load", "--envs", "x"},
	} {
		_, err := runArgs(args...)
		require.Error(t, err, "%v", args)
		assert.Contains(t, err.Error(), "invalid argument", "%v", args)
	}
}

// The exit statuses and streams, through main: help on standard output with
// status 0, a bad flag's error and usage on standard error with status 2.
func TestExitStatus(t *testing.T) {
	for _, c := range []struct {
		args           []string
		status         int
		stdout, stderr string
	}{
		{[]string{"--help"}, 0, "usage: splendorctl <command>", ""},
		{[]string{"play", "-h"}, 0, "usage: splendorctl play", ""},
		{[]string{"--version"}, 0, "splendorctl " + version, ""},
		{[]string{"play", "--seed", "abc"}, 2, "", "splendorctl: invalid argument \"abc\" for \"--seed\""},
		{[]string{"play", "--seed", "abc"}, 2, "", "\nusage: splendorctl play [flags]"},
		{[]string{"nosuch"}, 2, "", "\nusage: splendorctl <command>"},
	} {
		cmd := exec.Command(os.Args[0], c.args...)
		cmd.Env = append(os.Environ(), runMainEnv+"=1")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		status := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			status = exit.ExitCode()
		}
		assert.Equal(t, c.status, status, "%v", c.args)
		assert.Contains(t, stdout.String(), c.stdout, "%v", c.args)
		assert.Contains(t, stderr.String(), c.stderr, "%v", c.args)
		if c.stderr == "" {
			assert.Empty(t, stderr.String(), "%v", c.args)
		}
	}
}
