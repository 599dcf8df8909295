#pragma once
// The suite's own waits (the team's barrier, group barriers, the asynchronous executor's sleep
// word) follow OMP_WAIT_POLICY as libgomp's do: `passive` sleeps at once, where a spin or a yield
// would take a core the awaited thread needs; anything else (unset, `active`, a value libgomp
// rejects) keeps the spin-then-sleep waits measured for real cores (group_barrier.h,
// sleep_word.h). Read once per process, as libgomp reads it at start-up.
#include <cctype>
#include <cstdlib>
#include <string_view>

namespace lbb {

enum class WaitPolicy { kSpinThenSleep, kPassive };

// libgomp's parse (env.c, parse_wait_policy): case-insensitive, blanks around the word allowed.
inline WaitPolicy parse_wait_policy(const char* text) {
  if (!text) return WaitPolicy::kSpinThenSleep;
  std::string_view v(text);
  const auto blank = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!v.empty() && blank(v.front())) v.remove_prefix(1);
  while (!v.empty() && blank(v.back())) v.remove_suffix(1);
  constexpr std::string_view passive = "passive";
  if (v.size() != passive.size()) return WaitPolicy::kSpinThenSleep;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(v[i])) != passive[i])
      return WaitPolicy::kSpinThenSleep;
  return WaitPolicy::kPassive;
}

// This process's policy, from OMP_WAIT_POLICY at the first call.
inline WaitPolicy wait_policy() {
  static const WaitPolicy policy = parse_wait_policy(std::getenv("OMP_WAIT_POLICY"));
  return policy;
}

}  // namespace lbb
