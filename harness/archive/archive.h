#pragma once
// The HDF5 archive (contract in docs/ARCHITECTURE.md): one file, many runs, /runs/<run-id>
// groups with attributes and per-step datasets appended and flushed step by step. Writing only
// ever adds groups: an existing run is never rewritten.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/archive/h5_handle.h"
#include "harness/step_record.h"

namespace lbb {

// Every failure to read or write an archive, HDF5's own included.
using ArchiveError = h5::Error;

struct RunLayout {
  std::string label;  // becomes part of the run id
  int processors = 1;
  int modules = 1;
  bool record_modules = false;
  std::vector<std::string> metrics;  // workload step metrics, one dataset each under metric/
};

class RunWriter final : public StepSink {
 public:
  RunWriter(hid_t file, std::string id, const RunLayout& layout);
  ~RunWriter() override;
  const std::string& id() const { return id_; }

  void set_text(const std::string& name, const std::string& value);
  void set_int(const std::string& name, std::int64_t value);
  void set_real(const std::string& name, double value);
  void on_step(const StepRecord& record) override;  // appends one row everywhere, then flushes
  void flush();

 private:
  struct Series;
  hid_t file_;
  std::string id_;
  h5::Handle group_;
  RunLayout layout_;
  std::vector<std::unique_ptr<Series>> series_;
  std::int64_t rows_ = 0;
};

class ArchiveWriter {
 public:
  // Opens an lbbench archive for adding runs, creating it (and its folder) when absent.
  // Throws ArchiveError, touching nothing, when the path holds anything else.
  explicit ArchiveWriter(const std::string& path);
  std::unique_ptr<RunWriter> begin_run(const RunLayout& layout);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  h5::Handle file_;
};

// Read side, for `lbbench show`, reports and tests.
struct RunInfo {
  std::string id;
  std::map<std::string, std::string> text;
  std::map<std::string, double> number;
};

class ArchiveReader {
 public:
  explicit ArchiveReader(const std::string& path);  // throws ArchiveError
  std::vector<RunInfo> runs() const;
  std::vector<double> read_series(const std::string& run, const std::string& dataset) const;
  // A 2-D dataset as rows x cols, row-major.
  std::vector<double> read_matrix(const std::string& run, const std::string& dataset,
                                  std::size_t& rows, std::size_t& cols) const;

 private:
  std::string path_;
  h5::Handle file_;
};

}  // namespace lbb
