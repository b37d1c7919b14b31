package server

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/splendor-rl/splendor/baselines"
	"github.com/splendor-rl/splendor/env"
	"github.com/splendor-rl/splendor/env/nets"
)

// baselineName is a baseline's file name: the env id, then the players.
var baselineName = regexp.MustCompile(`^(.+)-([1-9])p\.safetensors$`)

// LoadBaselines reads the baseline networks and makes them the envs'
// baseline bots: every *.safetensors file of dir, or with dir empty those
// the binary embeds (package baselines). Other files are left alone. A
// file that cannot be played as its name says — unreadable, truncated,
// misnamed, or of sizes or an env other than its name's — refuses them
// all, with one line naming it and what is wrong: a server that started
// would otherwise play another bot than the one asked for, or none. It
// returns the names of the files loaded.
func LoadBaselines(dir string) ([]string, error) {
	fsys, where := fs.FS(baselines.Files), "embedded baselines: "
	if dir != "" {
		if info, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("baselines: %s: %v", dir, describe(err))
		} else if !info.IsDir() {
			return nil, fmt.Errorf("baselines: %s: not a directory", dir)
		}
		fsys, where = os.DirFS(dir), ""
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("baselines: %s%s: %w", where, dir, err)
	}
	var bs []env.Baseline
	var names []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".safetensors") {
			continue
		}
		b, err := readBaseline(fsys, e.Name(), where+filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		bs, names = append(bs, b), append(names, e.Name())
	}
	if err := env.SetBaselines(bs); err != nil {
		return nil, fmt.Errorf("baselines: %s%s", where, filepath.Join(dir, err.Error())) // the error begins with the file's name
	}
	return names, nil
}

// readBaseline reads one file, shown as path, and checks that its network
// was trained on the env its name says.
func readBaseline(fsys fs.FS, name, path string) (env.Baseline, error) {
	m := baselineName.FindStringSubmatch(name)
	if m == nil {
		return env.Baseline{}, fmt.Errorf("baselines: %s: want a name <env-id>-<players>p.safetensors", path)
	}
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return env.Baseline{}, fmt.Errorf("baselines: %s: cannot read: %v", path, describe(err))
	}
	n, err := nets.Read(path, data)
	if err != nil {
		return env.Baseline{}, fmt.Errorf("baselines: %w", err)
	}
	if n.Env != m[1] {
		return env.Baseline{}, fmt.Errorf("baselines: %s: named for %s, but its network was trained on %s", path, m[1], n.Env)
	}
	players, _ := strconv.Atoi(m[2])
	return env.NetBaseline(name, players, n), nil
}

// describe is a file error without the path, which the message says once.
func describe(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
