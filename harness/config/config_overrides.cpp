#include "harness/config/config_overrides.h"

#include <sstream>

#include "harness/config/run_spec.h"
#include "harness/config/yaml_reader.h"

namespace lbb {

namespace {

// Navigates/creates a.b.c (numbers index lists) and sets it to the parsed value; sections the
// config leaves out (execution:) are created.
void set_path(YAML::Node root, const std::string& path, const YAML::Node& value,
              const std::string& origin) {
  std::vector<std::string> keys;
  std::stringstream ss(path);
  for (std::string k; std::getline(ss, k, '.');) keys.push_back(k);
  if (keys.size() > static_cast<std::size_t>(kMaxYamlDepth))
    throw ConfigError(origin + ": a key path deeper than " + std::to_string(kMaxYamlDepth));
  YAML::Node node = root;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::string& k = keys[i];
    const bool last = i + 1 == keys.size();
    if (node.IsSequence()) {
      std::size_t idx = 0;
      try {
        idx = std::stoul(k);
      } catch (...) {
        throw ConfigError(origin + ": '" + k + "' must index a list");
      }
      if (idx >= node.size())
        throw ConfigError(origin + ": index " + k + " is past the list's end");
      if (last) {
        node[idx] = value;
      } else {
        YAML::Node next = node[idx];
        node.reset(next);
      }
    } else {
      if (node.IsDefined() && !node.IsMap() && !node.IsNull())
        throw ConfigError(origin + ": '" + k + "' is inside a value, not a section");
      if (last) {
        node[k] = value;
      } else {
        YAML::Node next = node[k];
        node.reset(next);
      }
    }
  }
}

}  // namespace

void apply_overrides(YAML::Node root, const std::vector<std::string>& overrides,
                     Problems& problems) {
  for (std::size_t i = 0; i < overrides.size(); ++i) {
    const std::string& text = overrides[i];
    const std::string origin = override_origin(text);
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0) throw ConfigError(origin + ": expected key.path=value");
    const std::string value = text.substr(eq + 1);
    const YAML::Node parsed = parse_strict_yaml(value.empty() ? "''" : value, origin, false);
    set_path(root, text.substr(0, eq), parsed, origin);
    problems.add_override(parsed, i, text);
  }
}

}  // namespace lbb
