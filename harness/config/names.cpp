#include "harness/config/names.h"

#include "core/text.h"

namespace lbb {

std::optional<std::string> label_problem(const std::string& label) {
  if (label.size() > kMaxNameBytes)
    return "is " + std::to_string(label.size()) + " bytes long; at most " +
           std::to_string(kMaxNameBytes);
  if (const std::string shown = printable(label); shown != label)
    return "'" + shown + "' holds a control character (shown as \\xNN)";
  return std::nullopt;
}

std::optional<std::string> config_name_problem(const std::string& name) {
  if (auto why = label_problem(name)) return why;
  if (name == "." || name == ".." || name.find('/') != std::string::npos)
    return "'" + name + "' is not a plain file name (no '/', not '.' or '..'): the archive is " +
           "results/<name>.h5 unless output: says otherwise";
  return std::nullopt;
}

}  // namespace lbb
