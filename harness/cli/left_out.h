#pragma once
// What a command that read a result set left out of it (docs/results.md, "Reading"): one stderr
// line per part or table that failed its checks, so that no command drops data without a word.
#include <cstddef>

namespace lbb {

class ResultReader;

// Prints `reader`'s problems from the `from`-th on ("lbbench: left out: ..."); returns how many
// it has now, the `from` of a later call (a table read later may add more).
std::size_t print_left_out(const ResultReader& reader, std::size_t from = 0);

}  // namespace lbb
