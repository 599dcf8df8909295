#include "harness/results/part_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <utility>

#include "harness/results/h5_table.h"

#include <libdeflate.h>

namespace lbb {

namespace fs = std::filesystem;

namespace {

std::string errno_text() {
  return std::strerror(errno);
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// The part's first kSealBytes, which HDF5 leaves to its user (a user block), hold a line naming
// the format and the CRC-32 and size of the rest: a reader checks them before HDF5 reads a byte,
// since HDF5 1.10.8 itself crashes on some damaged files (flipped bits in its metadata).
constexpr std::size_t kSealBytes = 512;
constexpr char kSealMagic[] = "lbbench-results part\n";

// The CRC-32 and size of `fd`'s bytes after the seal.
std::pair<std::uint32_t, std::uint64_t> crc_after_seal(int fd, const std::string& what) {
  std::vector<char> buffer(std::size_t{1} << 20);
  std::uint32_t crc = 0;
  std::uint64_t offset = kSealBytes;
  for (;;) {
    const ssize_t n = pread(fd, buffer.data(), buffer.size(), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw ResultError(what + ": " + errno_text());
    if (n == 0) break;
    crc = libdeflate_crc32(crc, buffer.data(), static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
  return {crc, offset};
}

void seal(int fd, const std::string& what) {
  const auto [crc, size] = crc_after_seal(fd, what);
  char seal[kSealBytes] = {};
  std::snprintf(seal, sizeof seal, "%scrc32 %08x size %llu\n", kSealMagic, crc,
                static_cast<unsigned long long>(size));
  if (pwrite(fd, seal, sizeof seal, 0) != static_cast<ssize_t>(sizeof seal))
    throw ResultError(what + ": " + errno_text());
}

// HDF5 writes the file `path` (open as `fd`), after a user block for the seal, into `reserve`
// bytes allocated first: a disk too full for them is refused before HDF5 writes anything, since
// HDF5 1.10.8 crashes at exit after a write that failed (a full disk).
void write_hdf5(const std::string& path, int fd, std::uint64_t reserve,
                const std::function<void(hid_t)>& fill) {
  H5Id fcpl(H5Pcreate(H5P_FILE_CREATE), H5Pclose, "a file creation list");
  h5_check(H5Pset_userblock(fcpl.get(), kSealBytes), "a user block");
  H5Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "a file access list");
  h5_check(H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V110, H5F_LIBVER_V110), "HDF5 1.10 format");
  h5_check(H5Pset_file_locking(fapl.get(), false, true), "file locking");
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get());
  if (file < 0) throw ResultError(path + ": HDF5 cannot create it");
  try {
    if (fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(reserve)) != 0 &&
        errno != EOPNOTSUPP)  // a file system without it: HDF5 finds out itself
      throw ResultError(path + ": " + std::to_string(reserve >> 10) + " KiB: " + errno_text());
    fill(file);
  } catch (...) {
    H5Fclose(file);
    throw;
  }
  if (H5Fclose(file) < 0) throw ResultError(path + ": HDF5 could not finish it (disk full?)");
}

// Why a file of a part's name that is not a regular file is left out.
std::string not_a_part(mode_t mode) {
  const char* what = S_ISLNK(mode)    ? "a symbolic link"
                     : S_ISDIR(mode)  ? "a directory"
                     : S_ISFIFO(mode) ? "a FIFO"
                     : S_ISSOCK(mode) ? "a socket"
                                      : "a device";
  return std::string(what) + ", not a part: a part is a regular file (links are never followed)";
}

void sync_fd(int fd, const std::string& what) {
  if (fsync(fd) != 0) throw ResultError(what + ": " + errno_text());
}

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// A file system without flock (some cluster file systems): no lock, and no stale temporary is
// ever removed there, since none can be told from a live writer's.
bool no_locks(int error) {
  return error == ENOLCK || error == EOPNOTSUPP || error == ENOSYS || error == EINVAL;
}

// The temporary `temp`, created and locked (flock, held until it is closed): a lock that a
// killed writer's kernel drops, which tells remove_stale_temporaries its file is no one's.
int locked_temporary(const std::string& temp) {
  for (;;) {
    const int fd = open(temp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) throw ResultError(temp + ": " + errno_text());
    if (flock(fd, LOCK_EX) != 0 && !no_locks(errno)) {
      const std::string why = errno_text();
      close(fd);
      throw ResultError(temp + ": " + why);
    }
    struct stat mine {
    }, named{};
    // A cleaner took it between open and flock, as it took a killed writer's: create it again.
    if (fstat(fd, &mine) == 0 && lstat(temp.c_str(), &named) == 0 && same_file(mine, named))
      return fd;
    close(fd);
  }
}

}  // namespace

void require_set_directory(const std::string& path, bool create) {
  if (path.empty()) throw ResultError("an empty result set path");
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (fs::is_directory(st)) return;
  if (fs::exists(st))
    throw ResultError(path + ": not a directory" +
                      (fs::is_regular_file(st)
                           ? " (an archive of an older lbbench? `lbbench convert " + path +
                                 " DIR` turns it into a result set)"
                           : ""));
  if (!create) throw ResultError(path + ": no such result set");
  fs::create_directories(path, ec);
  if (ec) throw ResultError(path + ": " + ec.message());
}

void publish_part(const std::string& dir, const std::string& name, std::uint64_t reserve,
                  const std::function<void(hid_t)>& fill) {
  const std::string target = dir + "/" + name, temp = dir + "/." + name + ".tmp";
  Fd fd(locked_temporary(temp));
  try {
    write_hdf5(temp, fd.get(), reserve, fill);
    seal(fd.get(), temp);
    sync_fd(fd.get(), temp);
    if (link(temp.c_str(), target.c_str()) != 0) throw ResultError(target + ": " + errno_text());
  } catch (...) {
    unlink(temp.c_str());
    throw;
  }
  unlink(temp.c_str());
  Fd directory(open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (directory.get() < 0) throw ResultError(dir + ": " + errno_text());
  sync_fd(directory.get(), dir);
}

void require_writable(const std::string& dir, const std::string& probe, std::uint64_t bytes) {
  const std::string path = dir + "/" + probe;
  Fd fd(open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (fd.get() < 0) throw ResultError(dir + ": cannot write a part there: " + errno_text());
  const int failed = fallocate(fd.get(), 0, 0, static_cast<off_t>(bytes)) != 0 ? errno : 0;
  unlink(path.c_str());
  if (failed != 0 && failed != EOPNOTSUPP)
    throw ResultError(dir + ": cannot write a part there: " + std::to_string(bytes >> 10) +
                      " KiB: " + std::strerror(failed));
}

std::vector<std::string> remove_stale_temporaries(const std::string& dir, double min_age_seconds) {
  std::vector<std::string> removed;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with('.') || !name.ends_with(".h5.tmp")) continue;
    const std::string path = it->path().string();
    Fd fd(open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    struct stat st {
    }, named{};
    if (fd.get() < 0 || fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (flock(fd.get(), LOCK_EX | LOCK_NB) != 0) continue;  // a live writer's, or no locks here
    const double age = difftime(time(nullptr), st.st_mtime);
    if (age < min_age_seconds || lstat(path.c_str(), &named) != 0 || !same_file(st, named))
      continue;
    if (unlink(path.c_str()) == 0) removed.push_back(name);
  }
  std::sort(removed.begin(), removed.end());
  return removed;
}

void reseal_part(const std::string& path) {
  Fd fd(open(path.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC));
  if (fd.get() < 0) throw ResultError(path + ": " + errno_text());
  seal(fd.get(), path);
}

std::vector<std::string> list_parts(const std::string& dir) {
  std::vector<std::string> parts;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with('.') && name.ends_with(".h5")) parts.push_back(it->path().string());
  }
  if (ec) throw ResultError(dir + ": " + ec.message());
  std::sort(parts.begin(), parts.end());
  return parts;
}

hid_t open_part(const std::string& path) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) throw ResultError(path + ": " + errno_text());
  if (!S_ISREG(st.st_mode)) throw ResultError(path + ": " + not_a_part(st.st_mode));
  Fd fd(open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) throw ResultError(path + ": unreadable: " + errno_text());
  if (fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
    throw ResultError(path + ": " + not_a_part(st.st_mode));
  char seal[kSealBytes + 1] = {};
  unsigned crc = 0;
  unsigned long long size = 0;
  if (pread(fd.get(), seal, kSealBytes, 0) != static_cast<ssize_t>(kSealBytes) ||
      std::strncmp(seal, kSealMagic, sizeof kSealMagic - 1) != 0 ||
      std::sscanf(seal + sizeof kSealMagic - 1, "crc32 %8x size %llu", &crc, &size) != 2)
    throw ResultError(path + ": not a part lbbench wrote (no seal in its first 512 bytes)");
  if (size != static_cast<unsigned long long>(st.st_size) ||
      crc_after_seal(fd.get(), path) != std::make_pair(std::uint32_t{crc}, std::uint64_t{size}))
    throw ResultError(path +
                      ": damaged: its size or CRC-32 differs from its seal (flipped "
                      "bits, a cut, or an edit after it was written)");
  H5Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "a file access list");
  h5_check(H5Pset_file_locking(fapl.get(), false, true), "file locking");
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get());
  if (file < 0) throw ResultError(path + ": not an HDF5 file, or damaged");
  return file;
}

}  // namespace lbb
