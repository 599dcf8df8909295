#pragma once
// The weights of `lbbench partition` parsed in one pass over the whole input: whitespace-separated
// numbers, each finite and non-negative, at least one. Messages name the source, the line and
// the token ("weights.txt:3: 'x1' is not a number"); a message is built only for the token that
// is wrong, so a million good weights cost little more than std::from_chars on each.
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace lbb {

// Throws PartitionInputError (harness/cli/partition_command.h).
std::vector<double> parse_weights(std::string_view text, const std::string& source);

// The whole stream, in large reads; throws PartitionInputError on a read error.
std::string read_all(std::istream& in, const std::string& source);

}  // namespace lbb
