#include "harness/config/yaml_reader.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "core/text.h"
#include "harness/config/config_loader.h"

namespace lbb {

namespace {

// Walks the parser's events, throwing at the first construct a config must not contain.
class StrictChecker : public YAML::EventHandler {
 public:
  StrictChecker(const std::string& origin, bool with_positions)
      : origin_(origin), with_positions_(with_positions) {}

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents_ > 1) fail(mark, "a second YAML document ('---'): a config is one document");
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node(mark, "", "~", false); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
    fail(mark, "aliases (*name) are not supported: write the value out");
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t,
                const std::string& value) override {
    // A NUL cut the text where C strings end (a name recorded as its first part, a path
    // opened as another); bytes that are not UTF-8 broke the readers of the result set.
    if (value.find('\0') != std::string::npos)
      fail(mark, "'" + printable(value.substr(0, 60)) + "' holds a NUL character");
    if (!valid_utf8(value)) fail(mark, "a text that is not valid UTF-8 (configs are UTF-8)");
    node(mark, tag, value, false);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    node(mark, tag, "", true);
    open(mark, false);
  }
  void OnSequenceEnd() override { stack_.pop_back(); }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    node(mark, tag, "", true);
    open(mark, true);
  }
  void OnMapEnd() override { stack_.pop_back(); }

 private:
  struct Frame {
    bool map = false;
    bool key_next = true;  // in a map: the next node is a key
    std::set<std::string> keys;
  };

  [[noreturn]] void fail(const YAML::Mark& mark, const std::string& message) const {
    if (!with_positions_ || mark.line < 0) throw ConfigError(printable(origin_ + ": " + message));
    throw ConfigError(printable(origin_ + ":" + std::to_string(mark.line + 1) + ":" +
                                std::to_string(mark.column + 1) + ": " + message));
  }

  // Every node: its tag, and when it is a map's key, that key's uniqueness.
  void node(const YAML::Mark& mark, const std::string& tag, const std::string& scalar,
            bool collection) {
    // "?": a plain scalar or collection, "!": a quoted scalar; anything else was written.
    if (!tag.empty() && tag != "?" && tag != "!")
      fail(mark, "unknown tag '" + tag + "': configs take no YAML tags");
    if (stack_.empty() || !stack_.back().map) return;
    Frame& map = stack_.back();
    map.key_next = !map.key_next;
    if (map.key_next) return;  // this node was a value
    if (collection) fail(mark, "a key must be a name, not a list or map");
    if (!map.keys.insert(scalar).second)
      fail(mark, "duplicated key '" + scalar + "' (each key may appear once in a map)");
  }

  void open(const YAML::Mark& mark, bool map) {
    if (static_cast<int>(stack_.size()) >= kMaxYamlDepth)
      fail(mark, "nested more than " + std::to_string(kMaxYamlDepth) + " lists or maps deep");
    stack_.push_back({map, true, {}});
  }

  const std::string& origin_;
  bool with_positions_;
  int documents_ = 0;
  std::vector<Frame> stack_;
};

}  // namespace

std::string read_config_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot read the config file");
  // Read a piece at a time: a buffer of the largest config, zeroed, cost more than the parse.
  std::string text;
  char piece[16384];
  while (in.read(piece, sizeof piece) || in.gcount() > 0) {
    text.append(piece, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxConfigBytes)
      throw ConfigError(path + ": larger than " + std::to_string(kMaxConfigBytes >> 20) +
                        " MiB; a config is a short text file");
  }
  if (in.bad()) throw ConfigError(path + ": cannot read the config file");
  return text;
}

YAML::Node parse_strict_yaml(const std::string& text, const std::string& origin,
                             bool with_positions) {
  try {
    std::istringstream stream(text);
    YAML::Parser parser(stream);
    StrictChecker checker(origin, with_positions);
    while (parser.HandleNextDocument(checker)) {
    }
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    if (!with_positions || e.mark.is_null()) throw ConfigError(origin + ": " + e.msg);
    throw ConfigError(origin + ":" + std::to_string(e.mark.line + 1) + ":" +
                      std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
}

}  // namespace lbb
