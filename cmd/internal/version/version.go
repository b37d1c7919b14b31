// Package version is the project's release, which both binaries announce
// (--version, and the server's hello).
package version

// Version is bumped with each release of the project.
const Version = "0.1.0"

// Docs is where the project's documents are read from anywhere (a wheel
// carries the binaries, not the docs): a path of the repository follows.
const Docs = "https://github.com/splendor-rl/splendor/blob/main/"
