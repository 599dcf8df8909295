#include "harness/run/reference_cache.h"

#include <tuple>

#include "harness/run/executor_registry.h"

namespace lbb {

bool ReferenceCache::Key::operator<(const Key& o) const {
  return std::tie(workload, params, steps, simulated) <
         std::tie(o.workload, o.params, o.steps, o.simulated);
}

ReferenceCache::Key ReferenceCache::key_of(const RunSpec& spec) {
  return {spec.workload, spec.workload_params.values(), spec.warmup + spec.steps,
          runs_simulated(spec)};
}

void ReferenceCache::expect(const RunSpec& spec) {
  ++entries_[key_of(spec)].runs_left;
}

std::shared_ptr<const SerialReference> ReferenceCache::take(const RunSpec& spec, int steps_run,
                                                            const Compute& compute) {
  const auto it = entries_.find(key_of(spec));
  if (it == entries_.end()) {  // not announced: nothing to share it with
    ++computed_;
    return compute();
  }
  Entry& e = it->second;
  std::shared_ptr<const SerialReference> reference = e.reference;
  // A run that stopped early has a reference of its own.
  if (!reference || reference->steps_run() != steps_run) {
    ++computed_;
    reference = compute();
    if (!e.reference) e.reference = reference;
  }
  if (--e.runs_left <= 0) entries_.erase(it);
  return reference;
}

}  // namespace lbb
