#pragma once
// The files of a result set: a directory of parts, each an HDF5 file built whole in memory and
// then linked into place under a name no other writer uses, so no reader ever sees half a part
// and no writer ever replaces one (docs/ARCHITECTURE.md, "Results").
#include <hdf5.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lbb {

// The set directory `path`: created (with its parents) when `create` and absent. Throws
// ResultError when it is not a directory (naming `lbbench convert` for an old archive file).
void require_set_directory(const std::string& path, bool create);

// Writes the part `dir`/`name`, whose tables `fill` writes into the new HDF5 file (HDF5 1.10
// format: checksummed metadata), durably (file and directory synced) and all or nothing: a
// hidden temporary `.<name>.tmp` hard-linked to its name once HDF5 has closed it, then removed
// (HDF5 cannot create a file through an unnamed file's /proc link). Never replaces an existing
// file. A kill leaves at most that hidden temporary, which readers ignore and the next writer
// removes (remove_stale_temporaries). Throws ResultError (a
// full disk, a read-only directory).
// `reserve`: an upper bound of the file's bytes, allocated before HDF5 writes (a full disk is
// refused before, not during, HDF5's writes).
void publish_part(const std::string& dir, const std::string& name, std::uint64_t reserve,
                  const std::function<void(hid_t)>& fill);

// Throws ResultError unless `dir` takes a new file `probe` of `bytes` (created, allocated and
// removed): an unwritable folder or a full disk is found before any run, not after them all.
void require_writable(const std::string& dir, const std::string& probe, std::uint64_t bytes);

// Removes the hidden temporaries `.<name>.h5.tmp` of `dir` that no live writer holds: a writer
// holds its temporary's flock from creating it to removing it (publish_part), a killed writer's
// lock is gone with it. Only those left unchanged for `min_age_seconds` (a file system whose
// locks other nodes do not see, a writer stopped with its job); none where flock is missing.
// Returns the names removed.
std::vector<std::string> remove_stale_temporaries(const std::string& dir, double min_age_seconds);

// Writes the seal of the file `path` anew over its first 512 bytes (what a tool that edits a
// part does; the fuzz target's damages are resealed so that they reach HDF5). Throws ResultError.
void reseal_part(const std::string& path);

// The files of a set that should be parts, sorted by name: every entry named *.h5 not starting
// with '.' (open_part refuses, and says why, one that is not a regular file).
std::vector<std::string> list_parts(const std::string& dir);

// Opens a part read-only once its seal (the CRC-32 of its bytes, in its HDF5 user block) holds:
// a regular file, no file locking (parts never change). Throws ResultError: a symbolic link, a
// directory, a FIFO (never opened for reading: it would block) or an unreadable file, each
// named as what it is.
hid_t open_part(const std::string& path);

}  // namespace lbb
