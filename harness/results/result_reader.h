#pragma once
// Reads a result set (result_schema.h): every part's runs table at opening, each object checked
// before it is read; a part that fails a check is left out and named in problems(), so one
// damaged file never hides the rest. Steps, procs and modules are read per run, on demand.
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "harness/base/recorded_runs.h"
#include "harness/results/child_reader.h"
#include "harness/results/h5_table.h"

namespace lbb {

// The RunRecord of row `row` of a runs table: each column into its field, the other float64
// columns into its figures (NaN left out).
RunRecord run_record(const ColumnTable& runs, std::size_t row);

class ResultReader final : public RecordedRuns {
 public:
  // A set directory, or one part file. Throws ResultError when there is no such set.
  explicit ResultReader(const std::string& path);
  // Every run of the set, sorted by invocation, then start, then id.
  const std::vector<RunRecord>& runs() const override { return runs_; }
  std::size_t parts_read() const { return parts_.size(); }
  std::vector<std::string> invocations() const;  // distinct, sorted (the latest last)
  const std::vector<std::string>& problems() const { return problems_; }  // parts left out: why
  std::vector<double> read_series(const std::string& run, const std::string& name) const override;
  std::vector<double> read_matrix(const std::string& run, const std::string& name,
                                  std::size_t& rows, std::size_t& cols) const override;
  // The whole table over every part read, rows of runs the runs table lacks left out. A part
  // whose table fails its checks is left out of it and named in problems().
  ColumnTable table(TableId id) const;
  // The run's rows of one table (TableId::kSpans: its measured timeline; none where unrecorded).
  ColumnTable run_rows(const std::string& run, TableId id) const { return rows_of(run, id); }

 private:
  struct Part {
    std::string path;
    std::uint64_t budget = 0;                     // bytes its tables may still take in memory
    std::int64_t version = kResultSchemaVersion;  // its schema_version
    // An older layout's tables, read by a child (child_reader.h): the part is never read here.
    std::shared_ptr<const std::map<TableId, HeldTable>> held = nullptr;
  };
  static ColumnTable held_table(const Part& part, TableId id);  // throws its error
  ColumnTable read_part_table(std::size_t part, TableId id) const;
  // The rows of `run` in table `id`: that table of every part its writer wrote.
  ColumnTable rows_of(const std::string& run, TableId id) const;
  void add_part(const std::string& path);
  std::string path_;
  std::vector<Part> parts_;
  std::vector<RunRecord> runs_;
  std::map<std::string, std::size_t> run_index_;
  std::map<std::string, std::size_t> run_part_;  // the part holding the run's runs row
  mutable std::vector<std::string> problems_;
  std::set<std::pair<std::size_t, std::string>> copies_;  // (part, run): a second copy, unread
  mutable std::map<std::pair<std::size_t, TableId>, ColumnTable> cache_;
};

}  // namespace lbb
