#pragma once
// Each problem's serial reference computed once per invocation and shared by every run of that
// problem (every balancer, processor count, executor and repetition), so that every run is still
// verified but the reference is not recomputed for each. A problem is a workload, its resolved
// parameters and the steps it runs: all a workload's reference depends on (workloads/workload.h).
// The runner announces the runs it will make; a reference is dropped after the last of them.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "core/params.h"
#include "harness/base/run_spec.h"
#include "workloads/workload.h"

namespace lbb {

class ReferenceCache {
 public:
  using Compute = std::function<std::shared_ptr<const SerialReference>()>;

  // One more run of spec's problem will ask for its reference.
  void expect(const RunSpec& spec);
  // The reference of spec's problem after `steps_run` steps: the one kept, else compute()'s,
  // kept while announced runs of the problem remain.
  std::shared_ptr<const SerialReference> take(const RunSpec& spec, int steps_run,
                                              const Compute& compute);
  std::int64_t computed() const { return computed_; }  // compute() calls so far
  std::size_t held() const { return entries_.size(); }

 private:
  struct Key {
    std::string workload;
    std::map<std::string, ParamValue, std::less<>> params;
    int steps = 0;
    bool simulated = false;  // a simulation's reference is empty: never hand it to a real run
    bool operator<(const Key& o) const;
  };
  struct Entry {
    int runs_left = 0;
    std::shared_ptr<const SerialReference> reference;
  };
  static Key key_of(const RunSpec& spec);

  std::map<Key, Entry> entries_;
  std::int64_t computed_ = 0;
};

}  // namespace lbb
