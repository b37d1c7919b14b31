package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/cast"
	"github.com/spf13/viper"
	"github.com/splendor-rl/splendor/cmd/internal/server"
	"github.com/stretchr/testify/require"
)

const shippedConfig = "../../configs/server.yaml"

// configs/server.yaml is what users read and edit: it must state exactly the
// built-in defaults.
func TestShippedConfigStatesTheDefaults(t *testing.T) {
	v := viper.New()
	v.SetConfigFile(shippedConfig)
	require.NoError(t, v.ReadInConfig())
	var keys []string
	for _, s := range table {
		keys = append(keys, s.key)
		require.Equal(t, cast.ToString(s.def), v.GetString(s.key), s.key)
	}
	require.ElementsMatch(t, keys, v.AllKeys())
}

// Flags have the type of their setting, and --help and --version are
// answers, not failures.
func TestFlagsAreTypedAndHelpIsAnAnswer(t *testing.T) {
	_, err := loadConfig([]string{"--help"})
	require.ErrorIs(t, err, errHelp)
	_, err = loadConfig([]string{"--version"})
	require.ErrorIs(t, err, errVersion)
	text := usage()
	for _, want := range []string{"--max-connections int", "--ping-interval duration", "--allow-remote-without-token",
		"--listen string", "(default 30s)", "--exit-on-stdin-close"} {
		require.Contains(t, text, want)
	}
	_, err = loadConfig([]string{"--max-connections", "many"})
	require.ErrorContains(t, err, "invalid argument")
	_, err = loadConfig([]string{"--ping-interval", "soon"})
	require.Error(t, err)
}

func TestBuiltInDefaults(t *testing.T) {
	cfg, err := loadConfig(nil)
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:8765", cfg.Listen)
	require.Zero(t, cfg.IdleTimeout, "peers that answer pings stay")
	require.Equal(t, 30*time.Second, cfg.PingInterval)
	require.Equal(t, 5*time.Second, cfg.shutdownGrace)
	require.Equal(t, int64(1<<20), cfg.MaxMessageBytes)
	require.Zero(t, cfg.MaxMemory)
}

// The shipped config states the worst-case memory of its limits, as the
// server computes it.
func TestShippedConfigStatesTheWorstCaseMemory(t *testing.T) {
	cfg, err := loadConfig([]string{"--config", shippedConfig})
	require.NoError(t, err)
	text, err := os.ReadFile(shippedConfig)
	require.NoError(t, err)
	require.Contains(t, string(text), fmt.Sprintf("= %.2f GiB", float64(server.WorstCaseMemory(cfg.Config))/(1<<30)))
}

func TestSizesListsAndSafety(t *testing.T) {
	cfg, err := loadConfig([]string{"--max-memory", "8GiB", "--allowed-hosts", "Envs.example, lab.example"})
	require.NoError(t, err)
	require.Equal(t, int64(8<<30), cfg.MaxMemory)
	require.Equal(t, []string{"envs.example", "lab.example"}, cfg.AllowedHosts)

	_, err = loadConfig([]string{"--listen", "0.0.0.0:9000"})
	require.ErrorContains(t, err, "token", "a non-loopback address without a token is refused")
	for _, args := range [][]string{
		{"--listen", "0.0.0.0:9000", "--token", "t"},
		{"--listen", "0.0.0.0:9000", "--allow-remote-without-token"},
		{"--listen", "[::1]:9000"},
		{"--listen", "localhost:9000"},
	} {
		_, err := loadConfig(args)
		require.NoError(t, err, "%v", args)
	}
}

// The file overrides the defaults, SPLENDOR_* variables the file, flags the
// variables.
func TestConfigLayers(t *testing.T) {
	file := filepath.Join(t.TempDir(), "server.yaml")
	require.NoError(t, os.WriteFile(file, []byte("listen: 127.0.0.1:1111\nmax_connections: 3\nworkers: 5\nlog_level: debug\n"), 0o644))
	t.Setenv("SPLENDOR_MAX_CONNECTIONS", "7")
	t.Setenv("SPLENDOR_WORKERS", "6")
	cfg, err := loadConfig([]string{"--config", file, "--workers", "9"})
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:1111", cfg.Listen, "file over default")
	require.Equal(t, 7, cfg.MaxConnections, "environment over file")
	require.Equal(t, 9, cfg.Workers, "flag over environment")
	require.Equal(t, 65536, cfg.MaxEnvsPerConnection, "default where nothing overrides")
}

func TestBadConfigIsRefused(t *testing.T) {
	for _, args := range [][]string{
		{"--max-message-bytes", "10"},
		{"--workers", "-1"},
		{"--log-level", "loud"},
		{"--idle-timeout", "soon"},
		{"--workers", "many"},
		{"--config", "/nonexistent/server.yaml"},
		{"--max-memory", "lots"},
		{"--max-memory", "-1GiB"},
		{"--pprof-listen", "0.0.0.0:6060"},
		{"--shutdown-grace", "0s"},
		{"--allow-remote-without-token", "maybe"},
		{"--no-such-flag"},
	} {
		_, err := loadConfig(args)
		require.Error(t, err, "%v", args)
	}
}
