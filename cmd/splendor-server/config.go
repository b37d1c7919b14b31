package main

import (
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

// defaults are the settings when nothing overrides them; configs/server.yaml
// states the same values (a test keeps them equal) for users to edit.
var defaults = map[string]any{
	"listen":                     "127.0.0.1:8765",
	"max_message_bytes":          1 << 20,
	"max_envs_per_connection":    65536,
	"max_envs_total":             262144,
	"max_connections":            256,
	"max_memory":                 "0",
	"idle_timeout":               "0s",
	"ping_interval":              "30s",
	"hello_timeout":              "5s",
	"shutdown_grace":             "5s",
	"allowed_hosts":              "",
	"allow_remote_without_token": false,
	"pprof_listen":               "",
	"workers":                    0,
	"log_level":                  "info",
	"token":                      "",
}

// settings are the server's Config plus what concerns this process alone.
type settings struct {
	server.Config
	shutdownGrace time.Duration
	pprofListen   string // "": no profiling endpoint
	// exitOnStdinClose drains and exits when standard input reaches EOF, so a
	// parent that holds the other end of a pipe takes the server with it
	// when it dies, even by SIGKILL.
	exitOnStdinClose bool
}

// loadConfig layers the settings: defaults < the config file < SPLENDOR_*
// environment variables < flags.
func loadConfig(args []string, stderr io.Writer) (settings, error) {
	v := viper.New()
	fs := pflag.NewFlagSet("splendor-server", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	configFile := fs.String("config", "", "YAML config file (for example configs/server.yaml)")
	exitOnStdinClose := fs.Bool("exit-on-stdin-close", false, "drain and exit when standard input closes (for a parent process that starts the server)")
	for key, def := range defaults {
		v.SetDefault(key, def)
		fs.String(strings.ReplaceAll(key, "_", "-"), "", fmt.Sprintf("override %s (default %v)", key, def))
	}
	if err := fs.Parse(args); err != nil {
		return settings{}, err
	}
	if *configFile != "" {
		v.SetConfigFile(*configFile)
		if err := v.ReadInConfig(); err != nil {
			return settings{}, fmt.Errorf("reading %s: %w", *configFile, err)
		}
	}
	v.SetEnvPrefix("SPLENDOR")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	for key := range defaults {
		if f := fs.Lookup(strings.ReplaceAll(key, "_", "-")); f.Changed {
			v.Set(key, f.Value.String())
		}
	}
	return toSettings(v, *exitOnStdinClose)
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
		IdleTimeout:          r.duration("idle_timeout"),
		PingInterval:         r.duration("ping_interval"),
		HelloTimeout:         r.duration("hello_timeout"),
		AllowedHosts:         r.list("allowed_hosts"),
		Workers:              r.int("workers"),
		Token:                r.str("token"),
		Version:              version,
	}, shutdownGrace: r.duration("shutdown_grace"), pprofListen: r.str("pprof_listen"), exitOnStdinClose: exitOnStdinClose}
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

func (r *strictReader) str(key string) string {
	s, err := cast.ToStringE(r.v.Get(key))
	if err != nil {
		r.fail(key, err)
	}
	return s
}

func (r *strictReader) int(key string) int {
	n, err := cast.ToIntE(r.v.Get(key))
	if err != nil {
		r.fail(key, err)
	}
	return n
}

func (r *strictReader) duration(key string) time.Duration {
	d, err := time.ParseDuration(r.str(key))
	if err != nil {
		r.fail(key, err)
	}
	return d
}

func (r *strictReader) bool(key string) bool {
	b, err := cast.ToBoolE(r.v.Get(key))
	if err != nil {
		r.fail(key, err)
	}
	return b
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
	}
	return nil
}
