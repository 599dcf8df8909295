#pragma once
// The runs a result set holds, as the simulator reads them to replay and calibrate: the results
// layer's ResultReader implements it, so sim/ reads recorded runs without knowing how they are
// stored (the layering: nothing under exec/, mpi/ or sim/ includes results/).
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/base/run_record.h"

namespace lbb {

class RecordedRuns {
 public:
  virtual ~RecordedRuns() = default;
  // Every run, sorted by invocation, then start, then id.
  virtual const std::vector<RunRecord>& runs() const = 0;
  // A run's steps column ("step/<column>", "metric/<name>"), one value a step.
  virtual std::vector<double> read_series(const std::string& run,
                                          const std::string& name) const = 0;
  // As rows x cols, row-major: "proc/<column>" [S,P]; "module/cost" (summed over phases) and
  // "module/owner" (phase 0) [S,M]; "module/phase_cost" and "module/phase_owner" [S,F*M]; so
  // every column of the modules table ("module/state_bytes", "module/phase_start_owner").
  virtual std::vector<double> read_matrix(const std::string& run, const std::string& name,
                                          std::size_t& rows, std::size_t& cols) const = 0;
};

// Opens the recorded runs at a path (a result set or one part); throws when there are none.
using RecordedRunsOpener = std::function<std::unique_ptr<RecordedRuns>(const std::string& path)>;

}  // namespace lbb
