#include "harness/config/names.h"

#include <filesystem>

#include "core/text.h"

namespace lbb {

std::optional<std::string> label_problem(const std::string& label) {
  if (label.size() > kMaxNameBytes)
    return "is " + std::to_string(label.size()) + " bytes long; at most " +
           std::to_string(kMaxNameBytes);
  if (const std::string shown = printable(label); shown != label)
    return "'" + shown + "' holds a control character (shown escaped, \\xNN or \\uNNNN)";
  return std::nullopt;
}

std::optional<std::string> config_name_problem(const std::string& name) {
  if (auto why = label_problem(name)) return why;
  if (name == "." || name == ".." || name.find('/') != std::string::npos)
    return "'" + name + "' is not a plain file name (no '/', not '.' or '..'): the result set is " +
           "results/<name> unless output: says otherwise";
  return std::nullopt;
}

std::optional<std::string> output_problem(const std::string& path) {
  if (const std::string shown = printable(path); shown != path)
    return "'" + shown + "' holds a control character (shown escaped, \\xNN or \\uNNNN)";
  for (const auto& part : std::filesystem::path(path))
    if (part == "..")
      return "'" + path + "' has a '..' component: a config's result set stays below where it " +
             "is run or at an absolute path (lbbench run -o names any other)";
  return std::nullopt;
}

}  // namespace lbb
