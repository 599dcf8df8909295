#include "harness/papers/auto_choice.h"

#include "balancers/choice/auto.h"

namespace lbb {

bool is_auto_choice(const RunSpec& spec) {
  if (spec.balancer.dynamic_name != kAutoChoice) return false;
  const auto& given = spec.balancer.dynamic_params.values();
  const auto horizon = given.find("horizon_steps");
  return horizon == given.end() || spec.balancer.dynamic_params.integer("horizon_steps") == 0;
}

RunSpec with_run_horizon(const RunSpec& spec) {
  RunSpec run = spec;
  run.balancer.dynamic_params.set("horizon_steps", std::int64_t{spec.warmup + spec.steps});
  return run;
}

RunOutcome execute_auto_run(const RunSpec& spec, int repetition, ResultWriter* writer,
                            const Provenance& provenance, ReferenceCache* references) {
  RunOutcome out;
  try {
    const RunSpec run = with_run_horizon(spec);
    out = execute_run(run, repetition, writer, provenance, references);
  } catch (const std::exception& e) {
    out.error = e.what();
    out.record.status = "failed";
    out.record.error = out.error;
  }
  out.spec = &spec;
  out.repetition = repetition;
  return out;
}

void register_auto_choice() {
  static const bool registered = [] {
    register_entry_runner(
        {is_auto_choice, [](const RunSpec&) { return std::vector<RunSpec>{}; }, execute_auto_run});
    return true;
  }();
  (void)registered;
}

}  // namespace lbb
