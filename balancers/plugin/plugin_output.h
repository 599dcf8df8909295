#pragma once
// What a plugin's decide wrote, checked before anything moves: nothing past the M owners (a
// guard of sentinel values follows them), every owner a processor, every module that may not
// move kept where it is.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lbb {

// The owners buffer a plugin writes: M owners, then kPluginGuard sentinels.
inline constexpr int kPluginGuard = 16;
std::vector<int> owner_buffer(std::span<const int> owner);

// Empty when `written` (M owners and the guard) is a valid assignment on `processors`, else the
// problem in words ("module 3: owner 17 is not a processor (0..15)").
std::optional<std::string> owner_problem(std::span<const int> written, std::span<const int> before,
                                         int processors, std::span<const unsigned char> migratable);

// What a Python script answered (any count of 64-bit integers) as the owners buffer above, or
// the problem: a count other than the modules', or an owner that is not a processor.
std::optional<std::string> wide_owner_problem(std::span<const std::int64_t> given,
                                              std::size_t modules, int processors,
                                              std::vector<int>& owners);

}  // namespace lbb
