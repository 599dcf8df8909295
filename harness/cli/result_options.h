#pragma once
// Options shared by the commands that print results (run, table, compare): --format, --only,
// --exclude, --invocation.
#include <string>
#include <vector>

#include "harness/analysis/comparison_table.h"
#include "harness/analysis/result_set.h"

namespace CLI {
class App;
}

namespace lbb {

struct ResultOptions {
  OutputFormat format = OutputFormat::kTable;
  Selection selection;
  bool wide = false;     // every column of the comparison table
  std::string baseline;  // the label ratios are taken against; empty: the config's
};

// Registers --format, --only and --exclude (and --invocation for commands that read a result
// set); a bad regular expression fails the parse (exit 2).
void add_result_options(CLI::App& cmd, ResultOptions& o, bool reads_sets = false);

// Registers --wide and --baseline, for the commands that print the comparison table.
void add_table_options(CLI::App& cmd, ResultOptions& o);

// Exit 2 with the labels there are when --baseline names none of `labels`.
void check_baseline(const ResultOptions& o, const std::vector<std::string>& labels);

}  // namespace lbb
