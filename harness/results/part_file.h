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
// file. A kill leaves at most that hidden temporary, which readers ignore. Throws ResultError (a
// full disk, a read-only directory).
// `reserve`: an upper bound of the file's bytes, allocated before HDF5 writes (a full disk is
// refused before, not during, HDF5's writes).
void publish_part(const std::string& dir, const std::string& name, std::uint64_t reserve,
                  const std::function<void(hid_t)>& fill);

// The parts of a set, sorted by name: regular files named *.h5 not starting with '.'.
std::vector<std::string> list_parts(const std::string& dir);

// Opens a part read-only once its seal (the CRC-32 of its bytes, in its HDF5 user block) holds:
// a regular file, no file locking (parts never change). Throws ResultError: a symbolic link, a
// directory, a FIFO (never opened for reading: it would block) or an unreadable file, each
// named as what it is.
hid_t open_part(const std::string& path);

}  // namespace lbb
