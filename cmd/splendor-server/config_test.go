package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/cast"
	"github.com/spf13/viper"
	"github.com/stretchr/testify/require"
)

const shippedConfig = "../../configs/server.yaml"

// configs/server.yaml is what users read and edit: it must state exactly the
// built-in defaults.
func TestShippedConfigStatesTheDefaults(t *testing.T) {
	v := viper.New()
	v.SetConfigFile(shippedConfig)
	require.NoError(t, v.ReadInConfig())
	require.ElementsMatch(t, keys(defaults), v.AllKeys())
	for key, def := range defaults {
		require.Equal(t, cast.ToString(def), v.GetString(key), key)
	}
}

func keys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

func TestBuiltInDefaults(t *testing.T) {
	cfg, err := loadConfig(nil, io.Discard)
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:8765", cfg.Listen)
	require.Equal(t, 10*time.Minute, cfg.IdleTimeout)
	require.Equal(t, 30*time.Second, cfg.PingInterval)
	require.Equal(t, int64(16<<20), cfg.MaxMessageBytes)
}

// The file overrides the defaults, SPLENDOR_* variables the file, flags the
// variables.
func TestConfigLayers(t *testing.T) {
	file := filepath.Join(t.TempDir(), "server.yaml")
	require.NoError(t, os.WriteFile(file, []byte("listen: 127.0.0.1:1111\nmax_connections: 3\nworkers: 5\nlog_level: debug\n"), 0o644))
	t.Setenv("SPLENDOR_MAX_CONNECTIONS", "7")
	t.Setenv("SPLENDOR_WORKERS", "6")
	cfg, err := loadConfig([]string{"--config", file, "--workers", "9"}, io.Discard)
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
		{"--no-such-flag"},
	} {
		_, err := loadConfig(args, io.Discard)
		require.Error(t, err, "%v", args)
	}
}
