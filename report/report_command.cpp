#include "report/report_command.h"

#include <CLI/CLI.hpp>

#include "report/python_script.h"

namespace lbb {

void add_report_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "report",
      "write PNG figures and one self-contained HTML page of a result set (with a second "
      "set: their comparison too); `lbbench report --help` lists the options");
  // Every argument, --help included, goes to the script, which parses them; it asks this same
  // executable for `table --format json`, so the report's statistics are the table's.
  cmd->prefix_command();
  cmd->set_help_flag();
  cmd->callback([cmd] { exec_python_script("report", "report.py", cmd->remaining()); });
}

}  // namespace lbb
