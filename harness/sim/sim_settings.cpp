#include "harness/sim/sim_settings.h"

namespace lbb {

SimSettings SimSettings::from(const Params& execution) {
  SimSettings s;
  auto real = [&](const char* key, double fallback) {
    return execution.has(key) ? execution.real(key) : fallback;
  };
  auto text = [&](const char* key) -> std::string {
    return execution.has(key) ? execution.text(key) : "";
  };
  s.latency = real("sim_latency", 0);
  s.bandwidth = real("sim_bandwidth", 0);
  s.measured_decisions = text("sim_decision") != "modelled";
  s.decision_seconds = real("sim_decision_seconds", 0);
  s.contention = real("sim_contention", 0);
  s.asynchronous = execution.has("sim_async") && execution.boolean("sim_async");
  s.replay_archive = text("replay_archive");
  s.replay_run = text("replay_run");
  return s;
}

}  // namespace lbb
