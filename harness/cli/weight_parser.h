#pragma once
// The weights of `lbbench partition` parsed in one pass as they are read: whitespace-separated
// numbers, each finite and non-negative, at least one. The input streams through one buffer of a
// megabyte (a file is never held whole), and messages name the source, the line and the token
// ("weights.txt:3: 'x1' is not a number"), built only for the token that is wrong: a million
// good weights cost little more than std::from_chars on each.
#include <istream>
#include <string>
#include <vector>

namespace lbb {

// Throws PartitionInputError (harness/cli/partition_command.h).
std::vector<double> parse_weights(std::istream& in, const std::string& source);

}  // namespace lbb
