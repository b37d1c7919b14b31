// Package version is the project's release, which both binaries announce
// (--version, and the server's hello).
package version

// Version is bumped with each release of the project.
const Version = "0.1.0"
