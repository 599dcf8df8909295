#pragma once
// Whether this process can start a team of threads. When libgomp cannot create a team's thread
// it ends the process ("libgomp: Thread creation failed", exit 1) with no word of why and the
// invocation's state half written; a run that a process limit (ulimit -u) or an address-space
// limit (ulimit -v: each thread maps a stack) would stop is refused before it starts instead.
#include <optional>
#include <string>

namespace lbb {

// Starts `threads` - 1 threads (the caller is the team's first) with the default stack, as
// libgomp does, holds them all alive at once, then ends them. Empty when all started, else why
// not, with the limits that apply.
std::optional<std::string> team_start_problem(int threads);

}  // namespace lbb
