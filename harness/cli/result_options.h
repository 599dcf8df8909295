#pragma once
// Options shared by the commands that print results (run, table, compare): --format, --only,
// --exclude, --invocation.
#include <string>

#include "harness/analysis/comparison_table.h"
#include "harness/analysis/result_set.h"

namespace CLI {
class App;
}

namespace lbb {

struct ResultOptions {
  OutputFormat format = OutputFormat::kTable;
  Selection selection;
};

// Registers --format, --only and --exclude (and --invocation for commands that read a result
// set); a bad regular expression fails the parse (exit 2).
void add_result_options(CLI::App& cmd, ResultOptions& o, bool reads_sets = false);

}  // namespace lbb
