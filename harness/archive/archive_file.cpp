#include "harness/archive/archive_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/archive/archive_schema.h"
#include "harness/archive/h5_records.h"

namespace lbb {

namespace fs = std::filesystem;

namespace {

std::string lock_path(const std::string& archive) {
  return archive + ".lbbench-lock";
}
std::string temp_path(const std::string& archive) {
  return archive + ".lbbench-tmp";
}

std::string holder_of(const std::string& lock) {
  std::ifstream in(lock);
  std::string who;
  std::getline(in, who);
  return who.empty() ? "another process" : who;
}

}  // namespace

ArchiveLock::ArchiveLock(const std::string& archive) : path_(lock_path(archive)) {
  // The holder unlinks the lock file when done; a writer that locked a file just unlinked
  // retries on the new one, so two writers never hold locks on two different files.
  for (int attempt = 0; attempt < 100; ++attempt) {
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd_ < 0)
      throw h5::Error(archive + ": cannot create the lock file " + path_ + ": " +
                      std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd_);
      fd_ = -1;
      if (err == EWOULDBLOCK)
        throw h5::Error(archive + ": another lbbench is writing this archive (" + holder_of(path_) +
                        " holds " + path_ + "); wait for it to finish or write to another archive");
      throw h5::Error(archive + ": cannot lock " + path_ + ": " + std::strerror(err));
    }
    struct stat held {
    }, named{};
    if (::fstat(fd_, &held) == 0 && ::stat(path_.c_str(), &named) == 0 &&
        held.st_ino == named.st_ino && held.st_dev == named.st_dev) {
      char host[256] = {};
      ::gethostname(host, sizeof host - 1);
      const std::string who = "pid " + std::to_string(::getpid()) + " on " + host + "\n";
      if (::ftruncate(fd_, 0) == 0 && ::write(fd_, who.data(), who.size()) < 0) {
        // The holder's name is only for the message; the lock itself is held.
      }
      return;
    }
    ::close(fd_);
    fd_ = -1;
  }
  throw h5::Error(archive + ": cannot take the lock " + path_);
}

ArchiveLock::ArchiveLock(ArchiveLock&& o) noexcept
    : path_(std::move(o.path_)), fd_(std::exchange(o.fd_, -1)) {}

ArchiveLock& ArchiveLock::operator=(ArchiveLock&& o) noexcept {
  if (this != &o) {
    release();
    path_ = std::move(o.path_);
    fd_ = std::exchange(o.fd_, -1);
  }
  return *this;
}

ArchiveLock::~ArchiveLock() {
  release();
}

void ArchiveLock::release() noexcept {
  if (fd_ < 0) return;
  ::unlink(path_.c_str());  // while still holding it: see the constructor
  ::close(fd_);
  fd_ = -1;
}

namespace {

void fsync_path(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// HDF5 1.10's object formats: a fixed-size dataset's chunk index is no B-tree (25 % smaller
// seed000 archives, docs/ARCHITECTURE.md "Archive layout").
h5::Handle access_plist() {
  auto fapl = h5::plist(H5Pcreate(H5P_FILE_ACCESS), "fapl");
  h5::check(H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V110, H5F_LIBVER_V110), "libver");
  return fapl;
}

h5::Handle create_empty_archive(const std::string& path) {
  // Commits rewrite a dataset's last, partly filled chunk; without free-space tracking kept in
  // the file, each commit would leak the old chunk (measured: 17x the size at one commit a
  // step). Persistent free-space managers (HDF5 1.10) let later commits reuse that space.
  auto fcpl = h5::plist(H5Pcreate(H5P_FILE_CREATE), "fcpl");
  h5::check(H5Pset_file_space_strategy(fcpl.get(), H5F_FSPACE_STRATEGY_FSM_AGGR, 1, 1),
            "file space strategy");
  auto file = h5::file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl.get(), access_plist().get()),
                       path + ": cannot create the archive");
  h5::group(H5Gcreate2(file.get(), "/runs", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "create /runs");
  return file;
}

}  // namespace

void commit_archive(const std::string& path, const std::function<void(hid_t)>& edit, bool durable) {
  const std::string tmp = temp_path(path);
  std::error_code ec;
  fs::remove(tmp, ec);
  h5::Handle file;
  try {
    if (fs::exists(path)) {
      if (!fs::copy_file(path, tmp, fs::copy_options::overwrite_existing, ec))
        throw h5::Error(path + ": cannot copy to " + tmp + ": " + ec.message());
      file =
          h5::file(H5Fopen(tmp.c_str(), H5F_ACC_RDWR, access_plist().get()), tmp + ": cannot open");
    } else {
      file = create_empty_archive(tmp);
    }
    h5::write_attribute(file.get(), "schema_version", std::int64_t{kArchiveSchemaVersion});
    edit(file.get());
    h5::check(H5Fclose(file.release()), tmp + ": cannot close");
  } catch (...) {
    file.reset();
    fs::remove(tmp, ec);
    throw;
  }
  if (durable) fsync_path(tmp, O_RDONLY);
  if (::rename(tmp.c_str(), path.c_str()) != 0)
    throw h5::Error(path + ": cannot replace it by " + tmp + ": " + std::strerror(errno));
  const fs::path parent = fs::path(path).parent_path();
  if (durable)
    fsync_path(parent.empty() ? std::string(".") : parent.string(), O_RDONLY | O_DIRECTORY);
}

}  // namespace lbb
