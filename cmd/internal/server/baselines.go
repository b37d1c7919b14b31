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

// baselineName is a baseline's file name: the env id, the players, then
// the edition it is, if a named one (bots.SetEditions checks the name).
var baselineName = regexp.MustCompile(`^(.+?)-([1-9])p(?:@(.+))?\.safetensors$`)

// LoadBaselines reads the baseline networks and makes them the envs'
// baseline bots: every *.safetensors file of dir, or with dir empty those
// the binary embeds (package baselines). Other files are left alone. A
// file that cannot be played as its name says — unreadable, truncated,
// misnamed, not a regular file, over nets.MaxFileSize, or of sizes or an
// env other than its name's — refuses them all, with one line naming it
// and what is wrong: a server that started would otherwise play another
// bot than the one asked for, or none. It returns the names of the files
// loaded.
func LoadBaselines(dir string) ([]string, error) {
	s := shelf{fs.FS(baselines.Files), ""}
	if dir != "" {
		if info, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("baselines: %s: %v", dir, describe(err))
		} else if !info.IsDir() {
			return nil, fmt.Errorf("baselines: %s: not a directory", dir)
		}
		s = shelf{os.DirFS(dir), dir}
	}
	entries, err := fs.ReadDir(s.fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("baselines: %s: %w", s.path("."), err)
	}
	var bs []env.Baseline
	var names []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".safetensors") { // a directory so named is refused by nets.Load
			continue
		}
		b, err := s.readBaseline(e.Name())
		if err != nil {
			return nil, err
		}
		bs, names = append(bs, b), append(names, e.Name())
	}
	if err := env.SetBaselines(bs); err != nil {
		return nil, fmt.Errorf("baselines: %s", s.path(err.Error())) // the error begins with the file's name
	}
	return names, nil
}

// shelf is where the baseline files are: the directory dir, or with dir
// empty the binary itself.
type shelf struct {
	fsys fs.FS
	dir  string
}

// path is how a refusal names the file name.
func (s shelf) path(name string) string {
	if s.dir == "" {
		return "embedded baselines: " + name
	}
	return filepath.Join(s.dir, name)
}

// readBaseline reads one file and checks that its network was trained on
// the env its name says. The name is checked first, so that a misnamed
// file is refused unopened.
func (s shelf) readBaseline(name string) (env.Baseline, error) {
	path := s.path(name)
	m := baselineName.FindStringSubmatch(name)
	if m == nil {
		return env.Baseline{}, fmt.Errorf("baselines: %s: want a name <env-id>-<players>p.safetensors or "+
			"<env-id>-<players>p@<edition>.safetensors", path)
	}
	n, err := s.load(name)
	if err != nil {
		return env.Baseline{}, fmt.Errorf("baselines: %w", err)
	}
	if n.Env != m[1] {
		return env.Baseline{}, fmt.Errorf("baselines: %s: named for %s, but its network was trained on %s", path, m[1], n.Env)
	}
	players, _ := strconv.Atoi(m[2])
	return env.NetBaseline(name, players, m[3], n), nil
}

// load reads the network of file name: from a directory through nets.Load,
// which refuses what is not a regular file of a bounded size before
// reading it; from the binary whole, as it was built.
func (s shelf) load(name string) (*nets.Net, error) {
	if s.dir != "" {
		return nets.Load(s.path(name))
	}
	b, err := fs.ReadFile(s.fsys, name)
	if err != nil {
		return nil, fmt.Errorf("nets: %s: cannot read: %v", s.path(name), describe(err))
	}
	return nets.Read(s.path(name), b)
}

// describe is a file error without the path, which the message says once.
func describe(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
