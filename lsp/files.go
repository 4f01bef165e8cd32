package lsp

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// errNotRegular is returned for devices, FIFOs, sockets and directories.
var errNotRegular = errors.New("not a regular file")

// ReadRegularFile reads the regular file at path, at most limit bytes:
// devices, FIFOs, sockets and directories are refused without reading
// (a FIFO would block for ever, /dev/zero never ends), and the limit is
// applied to what is read, not to what Stat says (0 for a device). The
// file is opened without blocking, in case it was swapped for a FIFO
// after the check.
func ReadRegularFile(path string, limit int64) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, errNotRegular)
	}
	if info.Size() > limit {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, limit)
	}
	fh, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if info, err = fh.Stat(); err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, errNotRegular)
	}
	data, err := io.ReadAll(io.LimitReader(fh, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, limit)
	}
	return data, nil
}

// within reports whether path, with every symlink resolved, lies inside
// one of the folders roots (already resolved).
func within(path string, roots []string) (string, bool) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return "", false
	}
	for _, root := range roots {
		rel, err := filepath.Rel(root, real)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return real, true
		}
	}
	return "", false
}

// resolveRoots resolves the symlinks of the workspace folders, leaving
// out folders that do not exist.
func resolveRoots(roots []string) []string {
	var out []string
	for _, r := range roots {
		real, err := filepath.EvalSymlinks(r)
		if err != nil {
			continue
		}
		if real, err = filepath.Abs(real); err == nil {
			out = append(out, real)
		}
	}
	return out
}
