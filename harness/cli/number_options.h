#pragma once
// Numbers given on the command line, checked as the config checks its keys (core/params.h): one
// parse and one range per kind of value, so "nan", "inf" and absurd sizes are refused at the
// option with exit 2, never read as 0 or carried into arithmetic that overflows.
#include <CLI/CLI.hpp>

#include "core/params.h"

namespace lbb {

// Fails the option unless its text parses as `spec`'s type and fits its bounds (finite).
CLI::Validator checked_as(const ParamSpec& spec);

// A processor's relative speed in `partition` and `balance`: 10^-6 to 10^6, so a load over a
// speed and a load times a speed stay far inside a double (loads are at most 2^53 units). Speeds
// 1e-308 and 1e308 side by side made diffusion_horton move -2^63 units a phase.
const ParamSpec& relative_speed_spec();

}  // namespace lbb
