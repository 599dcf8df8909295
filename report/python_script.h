#pragma once
// Runs one of the Python scripts beside this file (report.py, convert.py) with Debian's python3,
// whose h5py, numpy, pandas and matplotlib they use.
#include <string>
#include <vector>

namespace lbb {

// Replaces this process by `python3 <report/>SCRIPT --lbbench <this executable> ARGS...`: the
// script asks this same executable for what it needs (`table --format json`, `schema`). When
// python3 cannot be run, prints why under `lbbench COMMAND` and throws CLI::RuntimeError(1).
[[noreturn]] void exec_python_script(const std::string& command, const std::string& script,
                                     const std::vector<std::string>& args);

}  // namespace lbb
