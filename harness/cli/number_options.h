#pragma once
// Numbers given on the command line, checked as the config checks its keys (core/params.h): one
// parse and one range per kind of value, so "nan", "inf" and absurd sizes are refused at the
// option with exit 2, never read as 0 or carried into arithmetic that overflows.
#include <CLI/CLI.hpp>

#include "core/params.h"
#include "harness/base/platform_emulation.h"

namespace lbb {

// Fails the option unless its text parses as `spec`'s type and fits its bounds (finite).
CLI::Validator checked_as(const ParamSpec& spec);

}  // namespace lbb
