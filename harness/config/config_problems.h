#pragma once
// Collects a config's problems, each with where it is: file:line:col, or the --set that gave it.
#include <yaml-cpp/yaml.h>

#include <set>
#include <string>
#include <vector>

namespace lbb {

class Problems {
 public:
  explicit Problems(std::string file) : file_(std::move(file)) {}
  // Marks `node` (and the elements of a list) as coming from override number `index`.
  void add_override(const YAML::Node& node, std::size_t index, const std::string& text);
  std::string where(const YAML::Node& node) const;
  void at(const YAML::Node& node, const std::string& message);
  bool any() const { return !lines_.empty(); }
  // Every problem, one "where: message" per line, in the order found.
  std::string text() const;

 private:
  std::string file_;
  // Override texts once each, and the nodes they gave with their text's index: a --set with a
  // long list must not copy its text for every element (memory quadratic in its length).
  std::vector<std::string> override_texts_;
  std::vector<std::pair<YAML::Node, std::size_t>> override_nodes_;
  std::vector<std::string> lines_;
  std::set<std::string> seen_;
};

// "--set TEXT", shortened to a readable length.
std::string override_origin(const std::string& text);

}  // namespace lbb
