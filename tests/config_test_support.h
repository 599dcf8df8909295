#pragma once
// Config texts in tests: the error message a text gets (its path as FILE), and the step records
// of its first run.
#include <string>
#include <vector>

#include "executor_test_support.h"
#include "harness/config/config_loader.h"
#include "harness/formats/trace_workload.h"
#include "harness/run/executor_registry.h"
#include "test_support.h"

namespace lbb::testing {

// "" when the text loads.
inline std::string config_error_of(const std::string& text,
                                   std::vector<std::string> overrides = {}) {
  TempDir dir;
  const std::string path = dir.write("c.yaml", text);
  try {
    load_config(path, overrides);
  } catch (const ConfigError& e) {
    std::string msg = e.what();
    for (auto pos = msg.find(path); pos != std::string::npos; pos = msg.find(path))
      msg.replace(pos, path.size(), "FILE");
    return msg;
  }
  return "";
}

// The step records of the text's first run, run here by the executor the config chooses.
inline std::vector<StepRecord> first_run_steps(const std::string& text) {
  const Config config = load_config_text(text, "t.yaml");
  const RunSpec& spec = config.runs.front();
  const WorkloadInfo& info = *find_workload_kind(spec.workload);
  CollectSteps sink;
  choose_executor(spec, info).make(spec, info)->run(sink);
  return sink.records;
}

}  // namespace lbb::testing
