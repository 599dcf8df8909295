#pragma once
// A paper config's result beside the paper's numbers: `lbbench run` prints it after the table,
// `lbbench expect` from a result set.
#include <iosfwd>
#include <string>
#include <vector>

#include "harness/config/config_loader.h"
#include "harness/results/result_reader.h"

namespace lbb {

// The runs of `config` (by name) from one invocation, or from all when `invocation` is empty.
std::vector<RunRecord> runs_of(const std::vector<RunRecord>& all, const std::string& config_name,
                               const std::string& invocation);

// The host's load average when the runs began (the smallest load_start), the `auto` cases when
// there are any, and the expectation table with a verdict per row.
void print_paper_comparison(std::ostream& out, const Config& config,
                            const std::vector<RunRecord>& runs);

}  // namespace lbb
