#include "report/report_command.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace lbb {

namespace {

constexpr int kExitNoPython = 1;

// Replaces this process by python3 report.py --lbbench <this executable> ARGS...: the script
// asks this same executable for `table --format json`, so the report's statistics are the
// table's.
[[noreturn]] void run_report_script(const std::vector<std::string>& args) {
  std::error_code ec;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  std::vector<std::string> argv{LBB_PYTHON, LBB_REPORT_SCRIPT};
  if (!ec) argv.insert(argv.end(), {"--lbbench", self});
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> c_argv;
  for (auto& a : argv) c_argv.push_back(a.data());
  c_argv.push_back(nullptr);
  execv(c_argv[0], c_argv.data());
  std::cerr << "lbbench report: cannot run " << LBB_PYTHON << " " << LBB_REPORT_SCRIPT << ": "
            << std::strerror(errno) << " (./run.sh installs python3 and its packages)\n";
  throw CLI::RuntimeError(kExitNoPython);
}

}  // namespace

void add_report_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "report",
      "write PNG figures and one self-contained HTML page of a result set (with a second "
      "set: their comparison too); `lbbench report --help` lists the options");
  // Every argument, --help included, goes to the script, which parses them.
  cmd->prefix_command();
  cmd->set_help_flag();
  cmd->callback([cmd] { run_report_script(cmd->remaining()); });
}

}  // namespace lbb
