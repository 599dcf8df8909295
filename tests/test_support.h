#pragma once
// Shared helpers for tests: a scratch directory and small files in it.
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

namespace lbb::testing {

// While it lives, LeakSanitizer leaves out what is allocated (sanitizer builds; else nothing):
// for a third-party library's own leak, scoped to the one call that shows it.
struct LeaksIgnored {
#if defined(__SANITIZE_ADDRESS__)
  __lsan::ScopedDisabler disabled;
#endif
};

class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("lbbench-test-" + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name)) << text;
    return file(name);
  }

 private:
  std::filesystem::path path_;
};

}  // namespace lbb::testing
