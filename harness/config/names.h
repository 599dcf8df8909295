#pragma once
// What a config's own names may be. Its name becomes a file name (results/<name>.h5); it and its
// balancer labels are recorded, printed in tables and matched by --only / --exclude.
#include <cstddef>
#include <optional>
#include <string>

namespace lbb {

// Longer than any name a person types; short enough for a file name (NAME_MAX is 255).
inline constexpr std::size_t kMaxNameBytes = 200;

// Why `label` cannot label a balancer entry: longer than kMaxNameBytes, or holding a control
// character (it would reach a terminal).
std::optional<std::string> label_problem(const std::string& label);

// Why `name` cannot name a config: a label's problems, or not one plain file-name component
// ('/', "." or ".."), so that results/<name>.h5 stays in results/.
std::optional<std::string> config_name_problem(const std::string& name);

// Why `path` cannot be a config's `output:`: a control character (it would name a folder), or a
// '..' component (a config from elsewhere writes nothing above where it is run; checked before
// any folder is created).
std::optional<std::string> output_problem(const std::string& path);

}  // namespace lbb
