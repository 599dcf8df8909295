#pragma once
// The config file as a JSON Schema (draft 2020-12), generated from the tables the loader reads
// (config_keys.h, the workload, balancer and schedule registries, the expectation keys), so
// that an editor can complete and check a config. The loader stays the judge: the schema
// cannot say what needs two keys at once (processors against modules, speeds against
// processors, a balancer's parameters that constrain each other).
#include <nlohmann/json.hpp>

namespace lbb {

nlohmann::ordered_json config_json_schema();

}  // namespace lbb
