#pragma once
// The one description of every config key outside the workload and balancer registries: the
// top-level keys and the platform and execution sections. Reading, checking, `--set` and the
// resolved YAML recorded with each run all go by these tables. A new platform or execution key
// is one line here plus its use (apply_platform / apply_execution, then whatever reads it).
#include <span>
#include <string>
#include <vector>

#include "core/params.h"
#include "harness/config/config_loader.h"

namespace lbb {

// A key that is not a typed parameter: a top-level key or a balancers entry's own key.
struct KeyDoc {
  const char* key;
  const char* meaning;
};

// The top-level keys, in the order the resolved YAML writes them.
std::span<const KeyDoc> top_level_table();
const std::vector<std::string>& top_level_keys();  // their names

// A balancers entry's own keys; its other keys are its balancers' or schedule's parameters.
std::span<const KeyDoc> balancer_entry_keys();
bool is_balancer_entry_key(const std::string& key);

// A balancers entry's options for its between-step balancer, typed as parameters (each may be
// swept): what the step protocol does around any of them (harness/exec/step_protocol.cpp).
std::span<const ParamSpec> balancer_option_specs();
// Resolves an entry's given options and copies them into the choice's typed fields.
void apply_options(const Params& given, BalancerChoice& choice);

// An entry key (one of balancer_entry_keys()) whose value is a file the harness reads into one
// static balancer's parameter, given instead of the parameter (balancers know nothing of files).
struct FileParamKey {
  const char* key;
  const char* balancer;  // the static balancer of the entries it may appear in
  const char* param;     // the parameter the file gives
  std::vector<double> (*read)(const std::string& path);  // throws std::invalid_argument
};
std::span<const FileParamKey> file_param_keys();
const FileParamKey* find_file_param_key(const std::string& key);  // null: not one

std::span<const ParamSpec> platform_specs();
// A platform key with one value per processor that may also be given as a pattern following the
// processor count (processor_pattern.h): speeds (a list, or a pattern) and external_load (a
// number for every processor, or a pattern). `unnamed`: the value of a processor no item names.
struct PerProcessor {
  double unnamed;
};
const PerProcessor* per_processor(const ParamSpec& spec);  // null for any other key
std::span<const ParamSpec> execution_specs();

// Given platform values, checked, plus defaults (resolve_params), where a number key's pattern
// stays text (so the resolved YAML reads back the same): apply_platform expands it.
Params resolve_platform(const Params& given);

// Copies resolved (complete, checked) section parameters into the run's typed fields.
void apply_platform(const Params& platform, RunSpec& run);
void apply_execution(const Params& execution, RunSpec& run);

}  // namespace lbb
