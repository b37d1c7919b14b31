package main

import (
	"fmt"
	"io"
	"log/slog"
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
	"listen":                  "127.0.0.1:8765",
	"max_message_bytes":       16 << 20,
	"max_envs_per_connection": 65536,
	"max_envs_total":          262144,
	"max_connections":         256,
	"idle_timeout":            "10m",
	"ping_interval":           "30s",
	"workers":                 0,
	"log_level":               "info",
	"token":                   "",
}

// loadConfig layers the settings: defaults < the config file < SPLENDOR_*
// environment variables < flags.
func loadConfig(args []string, stderr io.Writer) (server.Config, error) {
	v := viper.New()
	fs := pflag.NewFlagSet("splendor-server", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	configFile := fs.String("config", "", "YAML config file (for example configs/server.yaml)")
	for key, def := range defaults {
		v.SetDefault(key, def)
		fs.String(strings.ReplaceAll(key, "_", "-"), "", fmt.Sprintf("override %s (default %v)", key, def))
	}
	if err := fs.Parse(args); err != nil {
		return server.Config{}, err
	}
	if *configFile != "" {
		v.SetConfigFile(*configFile)
		if err := v.ReadInConfig(); err != nil {
			return server.Config{}, fmt.Errorf("reading %s: %w", *configFile, err)
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
	return toConfig(v)
}

// toConfig reads every setting strictly: viper's getters turn a malformed
// value into zero, which must not silently become a setting.
func toConfig(v *viper.Viper) (server.Config, error) {
	r := strictReader{v: v}
	cfg := server.Config{
		Listen:               r.str("listen"),
		MaxMessageBytes:      int64(r.int("max_message_bytes")),
		MaxEnvsPerConnection: r.int("max_envs_per_connection"),
		MaxEnvsTotal:         r.int("max_envs_total"),
		MaxConnections:       r.int("max_connections"),
		IdleTimeout:          r.duration("idle_timeout"),
		PingInterval:         r.duration("ping_interval"),
		Workers:              r.int("workers"),
		Token:                r.str("token"),
		Version:              version,
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(r.str("log_level"))); err != nil && r.err == nil {
		r.err = fmt.Errorf("log_level: %w", err)
	}
	if r.err != nil {
		return cfg, r.err
	}
	cfg.Logger = slog.New(slog.NewTextHandler(stderrWriter, &slog.HandlerOptions{Level: level}))
	return cfg, validate(cfg)
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

func validate(cfg server.Config) error {
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
