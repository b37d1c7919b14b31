package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cast"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"github.com/splendor-rl/splendor/cmd/internal/server"
)

// table is every setting with its default and what it means; configs/server.yaml
// states the same defaults (a test keeps them equal) for users to edit, and
// each is a flag of the default's type (--max-connections 64).
var table = []setting{
	{"listen", "127.0.0.1:8765", "host:port to listen on; another than loopback needs a token"},
	{"max_message_bytes", 1 << 20, "largest request frame in bytes (larger: close 1009)"},
	{"max_envs_per_connection", 65536, "envs one connection may hold"},
	{"max_envs_total", 262144, "envs the whole server may hold"},
	{"max_connections", 256, "open connections at once (more: HTTP 503)"},
	{"max_memory", "0", "bytes the server may commit, such as 8GiB (0: no budget beyond the limits)"},
	{"max_search_iterations", 1 << 22, "mcts iterations one request may run over all its envs (0: no limit)"},
	{"max_search_memory", "2GiB", "bytes the guided searches waiting for evaluations may hold, all together"},
	{"search_timeout", time.Minute, "end a guided search whose client sends no evaluations for this long, giving its memory back"},
	{"idle_timeout", time.Duration(0), "close connections that send no request for this long, pings or not (0s: never)"},
	{"ping_interval", 30 * time.Second, "ping clients this often; drop one that answers no ping for two intervals (0s: no pings)"},
	{"hello_timeout", 5 * time.Second, "with a token, time a connection has to say hello with it"},
	{"shutdown_grace", 5 * time.Second, "on SIGTERM, time to answer what was read and close every connection"},
	{"allowed_hosts", "", "comma-separated host names the Host header may carry besides localhost and IP addresses (*: any)"},
	{"allow_remote_without_token", false, "allow a non-loopback listen address without a token"},
	{"pprof_listen", "", "loopback host:port to serve Go's pprof on (empty: off)"},
	{"workers", 0, "goroutines stepping envs (0: one per core)"},
	{"search_slots", 0, "mcts searches running at once, the share of the cores searches take (0: one fewer than workers, at least 1)"},
	{"baselines", "", "directory of the baseline bots' networks, <env-id>-<players>p[@<edition>].safetensors (empty: the ones built into the binary)"},
	{"log_level", "info", "debug, info, warn or error"},
	{"token", "", "shared secret clients send in hello (empty: none)"},
}

// setting is one configurable value.
type setting struct {
	key   string
	def   any // int, bool, string or time.Duration: the flag's type
	usage string
}

func (s setting) flag() string { return strings.ReplaceAll(s.key, "_", "-") }

// addFlag registers s as a flag of its default's type.
func (s setting) addFlag(fs *pflag.FlagSet) {
	switch def := s.def.(type) {
	case int:
		fs.Int(s.flag(), def, s.usage)
	case bool:
		fs.Bool(s.flag(), def, s.usage)
	case time.Duration:
		fs.Duration(s.flag(), def, s.usage)
	default:
		fs.String(s.flag(), fmt.Sprint(def), s.usage)
	}
}

// usageError is a command line that does not parse (exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() + "\n" + usage() }

// errHelp and errVersion are what --help and --version ask for: not
// failures (main prints and exits 0).
var (
	errHelp    = errors.New("help requested")
	errVersion = errors.New("version requested")
)

// settings are the server's Config plus what concerns this process alone.
type settings struct {
	server.Config
	shutdownGrace time.Duration
	pprofListen   string // "": no profiling endpoint
	baselines     string // the networks' directory ("": the embedded ones)
	// exitOnStdinClose drains and exits when standard input reaches EOF, so a
	// parent that holds the other end of a pipe takes the server with it
	// when it dies, even by SIGKILL.
	exitOnStdinClose bool
}

// loadConfig layers the settings: defaults < the config file < SPLENDOR_*
// environment variables < flags.
func loadConfig(args []string) (settings, error) {
	v := viper.New()
	fs := flags()
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return settings{}, errHelp
		}
		return settings{}, usageError{err}
	}
	if fs.NArg() > 0 {
		return settings{}, usageError{fmt.Errorf("unexpected argument %q (a bool flag takes --flag=false)", fs.Arg(0))}
	}
	if ok, _ := fs.GetBool("version"); ok {
		return settings{}, errVersion
	}
	configFile, _ := fs.GetString("config")
	exitOnStdinClose, _ := fs.GetBool("exit-on-stdin-close")
	for _, s := range table {
		v.SetDefault(s.key, s.def)
	}
	if configFile != "" {
		v.SetConfigFile(configFile)
		if err := v.ReadInConfig(); err != nil {
			return settings{}, fmt.Errorf("reading %s: %w", configFile, err)
		}
	}
	v.SetEnvPrefix("SPLENDOR")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	for _, s := range table {
		if f := fs.Lookup(s.flag()); f.Changed {
			v.Set(s.key, f.Value.String())
		}
	}
	return toSettings(v, exitOnStdinClose)
}

// flags are the command line: every setting, and what concerns the process.
func flags() *pflag.FlagSet {
	fs := pflag.NewFlagSet("splendor-server", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard) // errors and usage are printed by main, help to stdout
	fs.Usage = func() {}
	fs.String("config", "", "YAML config file (for example configs/server.yaml)")
	for _, s := range table {
		s.addFlag(fs)
	}
	fs.Bool("exit-on-stdin-close", false, "drain and exit when standard input closes (for a parent process that starts the server)")
	fs.Bool("version", false, "print the version and exit")
	return fs
}

// usage is the --help text.
func usage() string {
	return "usage: splendor-server [flags]\n\n" +
		"Serves the registered envs over WebSocket + msgpack (encoding/wire/PROTOCOL.md). Settings: defaults <\n" +
		"--config file < SPLENDOR_<KEY> environment variables < flags. SIGTERM or SIGINT drains it.\n\n" +
		flags().FlagUsages()
}

// toSettings reads every setting strictly: viper's getters turn a malformed
// value into zero, which must not silently become a setting.
func toSettings(v *viper.Viper, exitOnStdinClose bool) (settings, error) {
	r := strictReader{v: v}
	s := settings{Config: server.Config{
		Listen:               r.str("listen"),
		MaxMessageBytes:      int64(r.int("max_message_bytes")),
		MaxEnvsPerConnection: r.int("max_envs_per_connection"),
		MaxEnvsTotal:         r.int("max_envs_total"),
		MaxConnections:       r.int("max_connections"),
		MaxMemory:            r.bytes("max_memory"),
		MaxSearchIterations:  int64(r.int("max_search_iterations")),
		MaxSearchMemory:      r.bytes("max_search_memory"),
		SearchTimeout:        r.duration("search_timeout"),
		IdleTimeout:          r.duration("idle_timeout"),
		PingInterval:         r.duration("ping_interval"),
		HelloTimeout:         r.duration("hello_timeout"),
		AllowedHosts:         r.list("allowed_hosts"),
		Workers:              r.int("workers"),
		SearchSlots:          r.int("search_slots"),
		Token:                r.str("token"),
		Version:              version,
	}, shutdownGrace: r.duration("shutdown_grace"), pprofListen: r.str("pprof_listen"),
		baselines: r.str("baselines"), exitOnStdinClose: exitOnStdinClose}
	allowRemote := r.bool("allow_remote_without_token")
	var level slog.Level
	if err := level.UnmarshalText([]byte(r.str("log_level"))); err != nil && r.err == nil {
		r.err = fmt.Errorf("log_level: %w", err)
	}
	if r.err != nil {
		return s, r.err
	}
	s.Logger = slog.New(slog.NewTextHandler(stderrWriter, &slog.HandlerOptions{Level: level}))
	return s, validate(s, allowRemote)
}

// strictReader converts settings, keeping the first error.
type strictReader struct {
	v   *viper.Viper
	err error
}

func (r *strictReader) fail(key string, err error) {
	if r.err == nil {
		r.err = fmt.Errorf("%s: %w", key, err)
	}
}

// read converts key's value with conv, noting the first failure.
func read[T any](r *strictReader, key string, conv func(any) (T, error)) T {
	v, err := conv(r.v.Get(key))
	if err != nil {
		r.fail(key, err)
	}
	return v
}

func (r *strictReader) str(key string) string { return read(r, key, cast.ToStringE) }
func (r *strictReader) int(key string) int    { return read(r, key, cast.ToIntE) }
func (r *strictReader) bool(key string) bool  { return read(r, key, cast.ToBoolE) }

func (r *strictReader) duration(key string) time.Duration {
	return read(r, key, func(v any) (time.Duration, error) { return time.ParseDuration(cast.ToString(v)) })
}

// list reads a YAML list, or a comma-separated string (from a flag or an
// environment variable).
func (r *strictReader) list(key string) []string {
	var items []string
	if raw, ok := r.v.Get(key).([]any); ok {
		for _, item := range raw {
			items = append(items, fmt.Sprint(item))
		}
	} else {
		items = strings.Split(r.str(key), ",")
	}
	var out []string
	for _, item := range items {
		if item = strings.ToLower(strings.TrimSpace(item)); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// bytes reads a size: a number of bytes, or one with a unit (512MiB, 8GiB).
func (r *strictReader) bytes(key string) int64 {
	s := strings.TrimSpace(r.str(key))
	for _, unit := range []struct {
		suffix string
		shift  uint
	}{{"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}} {
		if num, ok := strings.CutSuffix(s, unit.suffix); ok {
			return r.sized(key, strings.TrimSpace(num), unit.shift)
		}
	}
	return r.sized(key, s, 0)
}

func (r *strictReader) sized(key, num string, shift uint) int64 {
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64>>shift {
		r.fail(key, fmt.Errorf("want a size such as 1073741824, 512MiB or 8GiB, got %q", num))
	}
	return n << shift
}

func validate(s settings, allowRemote bool) error {
	if err := validateLimits(s.Config); err != nil {
		return err
	}
	switch {
	case s.Token == "" && !allowRemote && !isLoopback(s.Listen):
		return fmt.Errorf("listen %s is reachable from other machines: set a token, or allow_remote_without_token: true", s.Listen)
	case s.pprofListen != "" && !isLoopback(s.pprofListen):
		return fmt.Errorf("pprof_listen must be a loopback address (127.0.0.1:6060), got %s", s.pprofListen)
	case s.shutdownGrace <= 0 || s.HelloTimeout < 0:
		return fmt.Errorf("shutdown_grace must be positive and hello_timeout not negative")
	}
	return nil
}

// isLoopback says whether host:port can be reached only from this machine.
func isLoopback(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func validateLimits(cfg server.Config) error {
	switch {
	case cfg.Listen == "":
		return fmt.Errorf("listen must be host:port")
	case cfg.MaxMessageBytes < 1024:
		return fmt.Errorf("max_message_bytes must be at least 1024, got %d", cfg.MaxMessageBytes)
	case cfg.MaxEnvsPerConnection < 1 || cfg.MaxEnvsTotal < 1 || cfg.MaxConnections < 1:
		return fmt.Errorf("max_envs_per_connection, max_envs_total and max_connections must be positive")
	case cfg.IdleTimeout < 0 || cfg.PingInterval < 0:
		return fmt.Errorf("idle_timeout and ping_interval must not be negative")
	case cfg.Workers < 0:
		return fmt.Errorf("workers must not be negative (0: one per core)")
	case cfg.MaxSearchMemory < 1:
		return fmt.Errorf("max_search_memory must be positive, such as 2GiB")
	case cfg.SearchTimeout <= 0:
		return fmt.Errorf("search_timeout must be positive, such as 60s")
	}
	return nil
}
