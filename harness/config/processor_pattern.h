#pragma once
// Values per processor written so that they follow the processor count: "last:0.5" is the last
// processor at 0.5 and every other at the key's unnamed value (speeds 1, external_load 0),
// whatever P is, so one config sweeps P with the same platform. Items are SELECTOR:VALUE,
// comma-separated, later items overriding earlier ones;
// SELECTOR is all, first, last, firstK / lastK (K processors) or firstK% / lastK% (K % of P,
// rounded up).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lbb {

// The syntax as an ECMAScript regular expression (the parser's and the JSON Schema's).
inline constexpr const char* kProcessorPatternRegex =
    "^(all|(first|last)([1-9][0-9]*%?)?):[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?"
    "(,(all|(first|last)([1-9][0-9]*%?)?):[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?)*$";

// Whether `text` is a pattern and not a number; only then do the other functions apply.
bool looks_like_processor_pattern(std::string_view text);

// Empty when `text` is a well-formed pattern whose values lie in [min, max]; else what is wrong.
std::optional<std::string> processor_pattern_problem(std::string_view text, double min, double max);

// The values of P processors, `unnamed` where no item names the processor. Throws
// std::invalid_argument when a selector names more processors than there are ("last5" at P = 4)
// or the pattern is malformed.
std::vector<double> expand_processor_pattern(std::string_view text, int processors, double unnamed);

}  // namespace lbb
