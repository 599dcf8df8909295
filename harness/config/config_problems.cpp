#include "harness/config/config_problems.h"

#include "core/text.h"

namespace lbb {

std::string override_origin(const std::string& text) {
  constexpr std::size_t kShown = 60;
  if (text.size() <= kShown) return "--set " + text;
  return "--set " + text.substr(0, kShown) + "...";
}

void Problems::add_override(const YAML::Node& node, std::size_t index, const std::string& text) {
  if (index >= override_texts_.size()) override_texts_.resize(index + 1);
  if (override_texts_[index].empty()) override_texts_[index] = override_origin(text);
  override_nodes_.emplace_back(node, index);
  // Lists and maps are descended (a sweep's elements, a map's keys and values are what problems
  // point at, never the config file); the reader refused aliases and deep nesting, so it ends.
  if (node.IsSequence())
    for (const auto& child : node) add_override(child, index, text);
  if (node.IsMap())
    for (const auto& kv : node) {
      add_override(kv.first, index, text);
      add_override(kv.second, index, text);
    }
}

std::string Problems::where(const YAML::Node& node) const {
  for (const auto& [n, index] : override_nodes_)
    if (n.is(node)) return override_texts_[index];
  const YAML::Mark m = node.Mark();
  if (m.line < 0) return file_;
  return file_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

void Problems::at(const YAML::Node& node, const std::string& message) {
  // Messages quote the config's own text, which may hold terminal control characters.
  std::string line = printable(where(node) + ": " + message);
  if (seen_.insert(line).second) lines_.push_back(std::move(line));
}

std::string Problems::text() const {
  std::string out;
  for (const auto& l : lines_) out += (out.empty() ? "" : "\n") + l;
  return out;
}

}  // namespace lbb
