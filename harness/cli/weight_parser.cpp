#include "harness/cli/weight_parser.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>

#include "core/text.h"
#include "harness/cli/partition_command.h"

namespace lbb {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// Parses the whole tokens of one buffer into `weights`.
class WeightScan {
 public:
  explicit WeightScan(const std::string& source) : source_(source) {}

  // Returns how many bytes of `text` were used: all of them at the end of the input, else up
  // to the start of a token that may go on in the next buffer.
  std::size_t scan(std::string_view text, bool at_end, std::vector<double>& weights) {
    const char* p = text.data();
    const char* const end = p + text.size();
    while (true) {
      for (; p != end && is_space(*p); ++p) line_ += *p == '\n';
      if (p == end) return text.size();
      double value = 0;
      const auto [stop, ec] = std::from_chars(p, end, value);
      if (stop == end && !at_end) return p - text.data();
      if (stop != end && !is_space(*stop)) {
        const char* token_end = stop;
        while (token_end != end && !is_space(*token_end)) ++token_end;
        if (token_end == end && !at_end) return p - text.data();
        bad({p, static_cast<std::size_t>(token_end - p)}, "is not a number");
      }
      const std::string_view token(p, stop - p);
      check_length(token);
      if (ec == std::errc::result_out_of_range) bad(token, "is out of range");
      if (ec != std::errc()) bad(token, "is not a number");
      if (!std::isfinite(value)) bad(token, "is not a finite number");
      if (value < 0) bad(token, "is negative; weights must be >= 0");
      weights.push_back(value);
      p = stop;
    }
  }

 private:
  [[noreturn]] void bad(std::string_view token, const char* what) const {
    throw PartitionInputError(source_ + ":" + std::to_string(line_) + ": '" +
                              printable(std::string(token.substr(0, kShown))) +
                              (token.size() > kShown ? "...' " : "' ") + what);
  }

 public:
  // A token longer than kMaxWeightTokenBytes, whole or unfinished, is no number (/dev/zero is
  // one endless token).
  void check_length(std::string_view token) const {
    if (token.size() > kMaxWeightTokenBytes) bad(token, "is longer than any number");
  }

 private:
  static constexpr std::size_t kShown = 40;  // a bad token's bytes a message shows
  const std::string& source_;
  int line_ = 1;
};

}  // namespace

std::vector<double> parse_weights(std::istream& in, const std::string& source) {
  std::vector<double> weights;
  WeightScan scan(source);
  std::string buffer(1 << 20, '\0');
  std::size_t kept = 0;  // the start of an unfinished token, moved to the buffer's front
  std::size_t total = 0;
  while (true) {
    in.read(buffer.data() + kept, static_cast<std::streamsize>(buffer.size() - kept));
    const std::size_t filled = kept + static_cast<std::size_t>(in.gcount());
    total += static_cast<std::size_t>(in.gcount());
    if (total > kMaxWeightInputBytes)
      throw PartitionInputError(source + ": more than " +
                                std::to_string(kMaxWeightInputBytes >> 20) +
                                " MiB of weights; lbbench partition reads no more");
    const bool at_end = !in;
    const std::size_t used = scan.scan({buffer.data(), filled}, at_end, weights);
    if (at_end) break;
    kept = filled - used;
    scan.check_length({buffer.data() + used, kept});
    std::memmove(buffer.data(), buffer.data() + used, kept);
  }
  if (in.bad()) throw PartitionInputError(source + ": read error");
  if (weights.empty()) throw PartitionInputError(source + ": no weights");
  return weights;
}

}  // namespace lbb
