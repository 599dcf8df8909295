#include "harness/config/config_overrides.h"

#include <sstream>

#include "harness/config/config_loader.h"
#include "harness/config/yaml_reader.h"

namespace lbb {

namespace {

// Appends the key node `key` of map `node` to `out`, so that a problem found at a key the --set
// created (a typo: "unknown key 'stepz'") is reported at the --set, not at the config file.
void add_key_node(const YAML::Node& node, const std::string& key, std::vector<YAML::Node>& out) {
  for (const auto& kv : node)
    if (kv.first.IsScalar() && kv.first.Scalar() == key) out.push_back(kv.first);
}

// "'k' must index a list": with the path so far and how to index it, as the README's own
// example once named a list's element without its index (workload.sd for workload.0.sd).
std::string index_problem(const std::vector<std::string>& keys, std::size_t i, std::size_t size,
                          const std::string& origin) {
  auto join = [&](std::size_t from, std::size_t to) {
    std::string out;
    for (std::size_t k = from; k < to; ++k) out += (k > from ? "." : "") + keys[k];
    return out;
  };
  const std::string before = join(0, i), after = join(i, keys.size());
  return origin + ": '" + keys[i] + "' must index a list: " + before + " is a list of " +
         std::to_string(size) + " (" + before + ".0." + after + " is its first's)";
}

// Navigates/creates a.b.c (numbers index lists, a last `+` appends) and sets it to the parsed
// value; sections the config leaves out (execution:) are created. Returns the key nodes it created.
std::vector<YAML::Node> set_path(YAML::Node root, const std::string& path, const YAML::Node& value,
                                 const std::string& origin) {
  std::vector<std::pair<YAML::Node, std::string>> fresh_keys;  // a map and a key set in it
  std::vector<std::string> keys;
  std::stringstream ss(path);
  for (std::string k; std::getline(ss, k, '.');) keys.push_back(k);
  if (keys.size() > static_cast<std::size_t>(kMaxYamlDepth))
    throw ConfigError(origin + ": a key path deeper than " + std::to_string(kMaxYamlDepth));
  YAML::Node node = root;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::string& k = keys[i];
    const bool last = i + 1 == keys.size();
    if (node.IsSequence() && k == "+" && last) {  // balancers.+={...}: one more entry
      node.push_back(value);
    } else if (node.IsSequence()) {
      std::size_t idx = 0;
      try {
        idx = std::stoul(k);
      } catch (...) {
        throw ConfigError(index_problem(keys, i, node.size(), origin));
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
      if (!node[k].IsDefined()) fresh_keys.emplace_back(node, k);
      if (last) {
        node[k] = value;
      } else {
        YAML::Node next = node[k];
        node.reset(next);
      }
    }
  }
  std::vector<YAML::Node> created;  // the keys exist once the value is set
  for (const auto& [map, key] : fresh_keys) add_key_node(map, key, created);
  return created;
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
    for (const YAML::Node& key : set_path(root, text.substr(0, eq), parsed, origin))
      problems.add_override(key, i, text);
    problems.add_override(parsed, i, text);
  }
}

}  // namespace lbb
