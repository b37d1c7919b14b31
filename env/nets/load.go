package nets

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// MaxFileSize bounds a network file, which Load refuses unread when larger.
// The networks are small MLPs played in pure Go on bot moves (the shipped
// ones are about 1.5 MB), and a file is held in memory about three times
// over while its tensors are laid out; 64 MiB is forty times the shipped
// size, room for a much wider net, yet a sparse file of gigabytes cannot
// exhaust the server's memory at start.
const MaxFileSize = 64 << 20

// Load reads and checks the network file at path (written by pvnet.save). A
// refusal is one line naming the file and what is wrong with it, since it
// ends up in a server log or an operator's terminal; the error of an
// unreadable file wraps the system's (errors.Is(err, fs.ErrNotExist) holds
// for a missing one).
func Load(path string) (*Net, error) {
	b, err := readFile(path)
	if err != nil {
		return nil, fmt.Errorf("nets: %s: %w", path, err)
	}
	return Read(path, b)
}

// readFile reads the regular file at path, of at most MaxFileSize bytes,
// and no more bytes than its size said: a named pipe would block the
// reader, a device such as /dev/zero would never end, and a file growing
// while read could pass any bound checked before.
func readFile(path string) ([]byte, error) {
	info, err := os.Stat(path) // through links: a loop or a dangling one fails here
	if err != nil {
		return nil, cannotRead(path, err)
	}
	if err := checkFile(info); err != nil { // before opening, which a device may notice
		return nil, err
	}
	// Should a named pipe replace the file after Stat, opening it does not
	// wait for a writer, and the check of what was opened refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, cannotRead(path, err)
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return nil, cannotRead(path, err)
	}
	if err := checkFile(info); err != nil {
		return nil, err
	}
	b := make([]byte, info.Size()+1) // one byte more, to notice a file that grew
	n, err := io.ReadFull(f, b)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF { // a short read is checked below
		return nil, cannotRead(path, err)
	}
	if size := info.Size(); int64(n) > size {
		return nil, fmt.Errorf("grew while read, past its %d bytes", size)
	} else if int64(n) < size {
		return nil, fmt.Errorf("shrank while read: %d of its %d bytes", n, size)
	}
	return b[:n], nil
}

// checkFile refuses what is not a regular file of at most MaxFileSize bytes.
func checkFile(info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s, not a regular file", fileKind(info.Mode()))
	}
	if info.Size() > MaxFileSize {
		return fmt.Errorf("%d bytes, more than the %d a network file may have (nets.MaxFileSize)", info.Size(), MaxFileSize)
	}
	return nil
}

// fileKind says what a file that is not a regular one is.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return fmt.Sprintf("of mode %v", m)
}

// cannotRead is the system's error without the path, which the refusal
// says once; a link to nothing is named as one, since "no such file" of a
// file just listed would puzzle.
func cannotRead(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if target, lerr := os.Readlink(path); lerr == nil && errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot read: a link to %s, which does not exist: %w", target, err)
	}
	return fmt.Errorf("cannot read: %w", err)
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
