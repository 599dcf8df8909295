#include "harness/cli/weight_parser.h"

#include <charconv>
#include <cmath>

#include "harness/cli/partition_command.h"

namespace lbb {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

[[noreturn]] void bad_token(const std::string& source, int line, std::string_view token,
                            const char* what) {
  throw PartitionInputError(source + ":" + std::to_string(line) + ": '" + std::string(token) +
                            "' " + what);
}

}  // namespace

std::vector<double> parse_weights(std::string_view text, const std::string& source) {
  std::vector<double> weights;
  weights.reserve(text.size() / 8);  // a guess: numbers written out take more than 8 bytes
  const char* p = text.data();
  const char* const end = p + text.size();
  int line = 1;
  while (true) {
    for (; p != end && is_space(*p); ++p) line += *p == '\n';
    if (p == end) break;
    const char* token_end = p;
    while (token_end != end && !is_space(*token_end)) ++token_end;
    const std::string_view token(p, token_end - p);
    double value = 0;
    const auto [stop, ec] = std::from_chars(p, token_end, value);
    if (ec == std::errc::result_out_of_range) bad_token(source, line, token, "is out of range");
    if (ec != std::errc() || stop != token_end) bad_token(source, line, token, "is not a number");
    if (!std::isfinite(value)) bad_token(source, line, token, "is not a finite number");
    if (value < 0) bad_token(source, line, token, "is negative; weights must be >= 0");
    weights.push_back(value);
    p = token_end;
  }
  if (weights.empty()) throw PartitionInputError(source + ": no weights");
  return weights;
}

std::string read_all(std::istream& in, const std::string& source) {
  std::string text;
  constexpr std::size_t kChunk = 1 << 20;
  while (in) {
    const std::size_t had = text.size();
    text.resize(had + kChunk);
    in.read(text.data() + had, kChunk);
    text.resize(had + static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw PartitionInputError(source + ": read error");
  return text;
}

}  // namespace lbb
