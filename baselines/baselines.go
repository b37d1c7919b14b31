// Package baselines ships the trained networks that play as the server's
// "baseline" bots (docs/bots.md): one file per env and table size, named
// <env-id>-<players>p.safetensors (splendor-v1-2p.safetensors), and frozen
// editions that play as "baseline@<edition>",
// <env-id>-<players>p@<edition>.safetensors, as
// python_client/splendor_rl/pvnet.py writes them. They are embedded in the
// binary, so that a server installed anywhere has them; the server's
// baselines setting names a directory to use instead.
package baselines

import "embed"

// Files is this directory as built into the binary; the server reads its
// *.safetensors files. (The pattern takes every file because one that
// matched no file, as before the first network ships, would not build.)
//
//go:embed *
var Files embed.FS
