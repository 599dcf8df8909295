#pragma once
// The archive on disk: one writer at a time, and changes that reach the path atomically.
//
// Crash safety (docs/ARCHITECTURE.md, "Crash safety"): a writer never modifies the file at the
// archive's path. Each commit copies it to <path>.lbbench-tmp, edits the copy, closes and
// fsyncs it, and renames it over the path. rename(2) replaces the name atomically, so at every
// instant the path holds a complete, closed HDF5 file: a kill -9 at any moment leaves either the
// previous or the new version, and readers (h5py, h5dump, `lbbench show`) open it while a run
// writes, because nobody holds it open for writing. A kill during the very first commit leaves
// only the temporary file, which the next writer removes.
#include <functional>
#include <string>

#include <hdf5.h>

namespace lbb {

// An exclusive flock(2) on <path>.lbbench-lock, held by the one writer. It does not depend on
// HDF5's file locking (HDF5_USE_FILE_LOCKING=FALSE turns that off), and the kernel releases
// it when the holder dies, so a killed writer never blocks the archive.
class ArchiveLock {
 public:
  ArchiveLock() = default;
  explicit ArchiveLock(const std::string& archive);  // throws h5::Error naming the holder
  ArchiveLock(const ArchiveLock&) = delete;
  ArchiveLock& operator=(const ArchiveLock&) = delete;
  ArchiveLock(ArchiveLock&& o) noexcept;
  ArchiveLock& operator=(ArchiveLock&& o) noexcept;
  ~ArchiveLock();

 private:
  void release() noexcept;
  std::string path_;
  int fd_ = -1;
};

// Replaces the archive at `path` (absent: a new, empty archive) by a copy that `edit` changed,
// atomically as described above. The caller holds the ArchiveLock. `durable` also fsyncs the
// file and its folder, so the new version survives a power loss too (a process kill needs no
// fsync: the page cache outlives the process); it costs about 15 ms a commit here.
void commit_archive(const std::string& path, const std::function<void(hid_t file)>& edit,
                    bool durable);

// Throws h5::Error unless the open file holds only what lbbench writes: /runs and /invocations
// groups, run groups holding the datasets of archive_schema.h, hard links only (no soft or
// external link, nothing else). Writers check this before adding to a file.
void check_archive_structure(hid_t file, const std::string& path);

// For `validate` and `run` before anything runs: the output path is absent or holds an archive
// that passes check_archive_structure. Throws h5::Error.
void check_output_archive(const std::string& path);

// Opens an existing archive read-only after the basic checks (exists, HDF5, /runs a group).
hid_t open_archive_read_only(const std::string& path);

}  // namespace lbb
