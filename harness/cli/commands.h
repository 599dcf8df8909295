#pragma once
// The lbbench subcommands; each registers itself on the app (apps/lbbench.cpp calls these).
// A command that fails throws CLI::RuntimeError(exit code) after printing why.
#include <string>
#include <vector>

#include "harness/analysis/result_set.h"

namespace CLI {
class App;
}

namespace lbb {

class ResultReader;

inline constexpr int kExitFailure = 1;       // a run failed (error during execution)
inline constexpr int kExitBadInput = 2;      // bad config, options, results or input data
inline constexpr int kExitVerification = 3;  // a run's result did not verify

void add_run_command(CLI::App& app);
void add_validate_command(CLI::App& app);
void add_list_command(CLI::App& app);
void add_show_command(CLI::App& app);
void add_partition_command(CLI::App& app);
void add_balance_command(CLI::App& app);
void add_schedule_command(CLI::App& app);
void add_table_command(CLI::App& app);
void add_compare_command(CLI::App& app);
void add_schema_command(CLI::App& app);
void add_expect_command(CLI::App& app);
void add_export_command(CLI::App& app);
void add_simulate_command(CLI::App& app);
void add_convert_command(CLI::App& app);  // runs report/convert.py

// A result set's selected runs, for table and compare; exit 2 when it cannot be read. Prints
// what it read (runs, invocations, parts; parts left out and why) to stderr.
std::vector<ConfigResult> read_results(const std::string& path, const Selection& selection);

// Throws ResultError "PATH: no runs" when `reader` holds no run: show, compare and export refuse
// an empty set as table does (exit 2), never print an empty answer with exit 0.
void require_runs(const ResultReader& reader, const std::string& path);

}  // namespace lbb
