#pragma once
// Writes runs into a result set (result_schema.h, part_file.h): each run's records stay in its
// RunWriter while it runs and join the writer's next part when it ends; a part is written when
// kPartSeconds have passed since the last one (checked as a run ends, never inside a step), when
// the pending rows outgrow the memory budget, and at finish(). No lock, no journal: any number of
// processes write one set, each its own parts.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "harness/base/record_level.h"
#include "harness/base/run_record.h"
#include "harness/base/step_record.h"
#include "harness/base/timeline_span.h"
#include "harness/results/h5_table.h"

namespace lbb {

using ResultValue = std::variant<std::string, std::int64_t, double>;

struct RunLayout {
  std::vector<std::string> metrics;  // the workload's step metrics: steps columns metric_<name>
  int processors = 1;
  int modules = 1;
  RecordLevel record = RecordLevel::kProcs;  // the tables its rows go to (execution.record)
  int phases = 1;
  bool timeline = false;  // execution.timeline: the spans table
};

// Provenance stored once per invocation, a row of each part's invocations table.
struct InvocationRecord {
  std::string id;
  std::vector<std::pair<std::string, ResultValue>> attributes;  // columns of invocations
};

class ResultWriter;

class RunWriter final : public StepSink {
 public:
  RunWriter(ResultWriter& set, std::string id, const RunLayout& layout);
  ~RunWriter() override;  // a run that never ended is dropped
  const std::string& id() const { return id_; }
  void on_step(const StepRecord& record) override;
  // What is known of the run before its first step: from now on an interrupt keeps the run as
  // failed with this header (ResultWriter::finish_before_exit).
  void write_header(const RunRecord& header);
  // The run's end: its row and its pending rows join the set's next part. Nothing after it.
  void end(const RunRecord& record);
  // The run's measured timeline (execution.timeline), before its end.
  void add_spans(std::span<const TimelineSpan> spans);

 private:
  friend class ResultWriter;
  std::size_t pending_bytes() const;
  bool writes(TableId table) const;  // whether its level (layout.record) writes the table
  ResultWriter& set_;
  std::string id_;
  RunLayout layout_;
  ColumnTable steps_, procs_, modules_, spans_, transfers_;
  bool ended_ = false;
};

class ResultWriter {
 public:
  // Opens (creating it when absent) the set directory `path`, and checks that it takes a file;
  // removes the temporaries killed writers left (remove_stale_temporaries, said on stderr).
  // Throws ResultError.
  ResultWriter(std::string path, InvocationRecord invocation);
  ~ResultWriter();  // finish(); a failure is printed, not thrown
  std::unique_ptr<RunWriter> begin_run(const RunLayout& layout);
  const std::string& path() const { return path_; }
  // Writes what is pending as a part now; throws ResultError (the rows stay pending). Safe to
  // call from another thread than the one running the runs.
  void finish();
  // finish(), for a process about to exit: the writer stays locked, so no run can end after it
  // (a run's end would wait forever). The run in flight, once its header is written
  // (RunWriter::write_header), is written as `ending` makes its header (failed: status, error,
  // finished, load_end) with the steps it handed over.
  struct Exit {
    std::size_t runs = 0;    // the runs written, by this writer, the one in flight included
    bool in_flight = false;  // whether a run was in flight (and written as failed)
  };
  Exit finish_before_exit(const std::function<void(RunRecord&)>& ending);
  // Why the last part could not be written (a full disk, a folder gone), else empty: from then
  // on a run's end throws it and keeps nothing, and the invocation stops (run_progress.h).
  std::string failure();
  int parts_written() const { return parts_; }
  std::size_t runs_written() const { return runs_written_; }
  // A part is due this long after the previous one (LBB_RESULTS_PART_SECONDS overrides it):
  // what a kill loses is at most the runs that ended in this time.
  static constexpr double kPartSeconds = 2;
  // Pending rows beyond this many bytes are written at once (LBB_RESULTS_BUDGET_MB overrides it).
  static constexpr std::size_t kBudgetBytes = std::size_t{256} << 20;
  // A part's bytes beyond its columns' (HDF5's metadata, the seal): what the set's folder must
  // take before a run starts.
  static constexpr std::uint64_t kMetadataBytes = std::uint64_t{64} << 10;
  // A killed writer's temporary, unlocked and unchanged this long, is removed by the next writer.
  static constexpr double kStaleSeconds = 600;

 private:
  friend class RunWriter;
  // Its rows, and `row` (its end) when given, into the pending part.
  void take(RunWriter& run, const RunRecord* row);
  void write_part();  // with mutex_ held
  std::mutex mutex_;  // finish() may come from another thread (an interrupt, run_command.cpp)
  std::string path_, writer_;
  std::string stem_;  // <invocation>.<writer>: its run ids and part names start with it
  ColumnTable invocation_, runs_, steps_, procs_, modules_, spans_, transfers_;
  std::atomic<std::size_t> pending_bytes_ = 0;
  std::size_t next_run_ = 0, budget_ = kBudgetBytes, runs_written_ = 0;
  int parts_ = 0;
  bool finish_failed_ = false;
  std::string failure_;       // of the last write_part
  std::string in_flight_id_;  // the run between its first step and its end, and its header
  RunRecord in_flight_;
  double interval_ = kPartSeconds;
  std::chrono::steady_clock::time_point last_part_;
};

}  // namespace lbb
