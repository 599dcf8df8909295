#include "harness/config/processor_pattern.h"

#include <cmath>
#include <cstdlib>
#include <regex>
#include <stdexcept>

#include "core/text.h"

namespace lbb {

namespace {

struct Item {
  bool all = false, last = false, percent = false;
  long count = 1;  // processors, or percent of P
  double value = 1;
};

// One checked item; the whole text matched kProcessorPatternRegex before.
Item parse_item(const std::string& item) {
  Item out;
  const std::size_t colon = item.find(':');
  std::string selector = item.substr(0, colon);
  out.value = std::strtod(item.c_str() + colon + 1, nullptr);  // 1e999: inf, out of range
  if (selector == "all") {
    out.all = true;
    return out;
  }
  out.last = selector.starts_with("last");
  selector.erase(0, out.last ? 4 : 5);
  out.percent = selector.ends_with('%');
  if (out.percent) selector.pop_back();
  if (!selector.empty()) {
    if (selector.size() > 6) throw std::invalid_argument("'" + item + "': too many processors");
    out.count = std::stol(selector);
  }
  if (out.percent && out.count > 100)
    throw std::invalid_argument("'" + item + "': more than 100 % of the processors");
  return out;
}

std::vector<Item> parse(std::string_view text) {
  static const std::regex syntax(kProcessorPatternRegex, std::regex::ECMAScript);
  // std::regex recurses once per character it matches: a pattern is at most 200 bytes.
  if (text.size() > 200 || !std::regex_match(text.begin(), text.end(), syntax))
    throw std::invalid_argument("'" + std::string(text.substr(0, 60)) +
                                "' is not a pattern such as last:0.5 or first2:0.25,last:0.5 "
                                "(all, first, last, firstK, lastK, firstK%, lastK%)");
  std::vector<Item> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    items.push_back(parse_item(std::string(text.substr(start, comma - start))));
    start = comma + 1;
  }
  return items;
}

}  // namespace

bool looks_like_processor_pattern(std::string_view text) {
  return text.find(':') != std::string_view::npos;
}

std::optional<std::string> processor_pattern_problem(std::string_view text, double min,
                                                     double max) {
  try {
    for (const Item& item : parse(text))
      if (!(item.value >= min && item.value <= max))
        return "every value must lie in [" + format_number(min, 12) + ", " +
               format_number(max, 12) + "], got " + format_number(item.value, 12);
  } catch (const std::exception& e) {
    return e.what();
  }
  return std::nullopt;
}

std::vector<double> expand_processor_pattern(std::string_view text, int processors,
                                             double unnamed) {
  std::vector<double> values(static_cast<std::size_t>(processors), unnamed);
  for (const Item& item : parse(text)) {
    const long n = item.all       ? processors
                   : item.percent ? static_cast<long>(std::ceil(processors * item.count / 100.0))
                                  : item.count;
    if (n > processors)
      throw std::invalid_argument("'" + std::string(text) + "' names " + std::to_string(n) +
                                  " processors of " + std::to_string(processors));
    for (long i = 0; i < n; ++i) values[item.last ? processors - 1 - i : i] = item.value;
  }
  return values;
}

}  // namespace lbb
