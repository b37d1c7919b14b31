package nets

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Load reads and checks the network file at path (written by pvnet.save). A
// refusal is one line naming the file and what is wrong with it, since it
// ends up in a server log or an operator's terminal; the error of an
// unreadable file wraps the system's (errors.Is(err, fs.ErrNotExist) holds
// for a missing one).
func Load(path string) (*Net, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is said once, below
		}
		return nil, fmt.Errorf("nets: %s: cannot read: %w", path, err)
	}
	return Read(path, b)
}

// Read reads and checks a network file's bytes b, as Load does; name is
// the file, for the refusal (a file embedded in the binary has no path on
// disk).
func Read(name string, b []byte) (*Net, error) {
	n, err := parse(b)
	if err != nil {
		return nil, fmt.Errorf("nets: %s: %w", name, err)
	}
	return n, nil
}

// parse reads a whole file: the metadata first, so that a safetensors file
// of something else is refused for its format, not for its tensors.
func parse(b []byte) (*Net, error) {
	h, data, err := readHeader(b)
	if err != nil {
		return nil, err
	}
	env, options, err := readMetadata(h.meta)
	if err != nil {
		return nil, err
	}
	tensors, err := decodeTensors(h.entries, data)
	if err != nil {
		return nil, err
	}
	n, err := assemble(tensors)
	if err != nil {
		return nil, err
	}
	n.Env, n.Options = env, options
	return n, nil
}

// readMetadata checks the format and returns the env id and options.
func readMetadata(meta map[string]string) (string, map[string]any, error) {
	format, ok := meta["format"]
	if !ok {
		return "", nil, fmt.Errorf("no format in the metadata, want %q (a file of pvnet.save?)", Format)
	}
	if format != Format {
		return "", nil, fmt.Errorf("format %q, want %q", format, Format)
	}
	env := meta["env"]
	if env == "" {
		return "", nil, errors.New("no env id in the metadata")
	}
	raw, ok := meta["options"]
	if !ok {
		return "", nil, errors.New("no options in the metadata")
	}
	var options map[string]any
	// A JSON null decodes into a nil map without error: refuse it as well.
	if err := json.Unmarshal([]byte(raw), &options); err != nil || options == nil {
		return "", nil, fmt.Errorf("options %.40q are not a JSON object", raw)
	}
	return env, options, nil
}
