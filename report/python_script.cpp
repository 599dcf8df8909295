#include "report/python_script.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstring>
#include <filesystem>
#include <iostream>

namespace lbb {

namespace {

constexpr int kExitNoPython = 1;

}  // namespace

void exec_python_script(const std::string& command, const std::string& script,
                        const std::vector<std::string>& args) {
  std::error_code ec;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  const std::string path = std::string(LBB_REPORT_DIR) + "/" + script;
  std::vector<std::string> argv{LBB_PYTHON, path};
  if (!ec) argv.insert(argv.end(), {"--lbbench", self});
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> c_argv;
  for (auto& a : argv) c_argv.push_back(a.data());
  c_argv.push_back(nullptr);
  execv(c_argv[0], c_argv.data());
  std::cerr << "lbbench " << command << ": cannot run " << LBB_PYTHON << " " << path << ": "
            << std::strerror(errno) << " (./run.sh installs python3 and its packages)\n";
  throw CLI::RuntimeError(kExitNoPython);
}

}  // namespace lbb
