#pragma once
// What a between-step balancer is given instead of the last step's measured costs: a prediction
// of each module's next cost from the costs measured so far (vt's load models, DARMA-tasking/vt
// src/vt/vrt/collection/balance/model/). The step protocol feeds every measured step to the
// phase's model and builds the balancer's view from its prediction, so threads, MPI ranks and
// the simulator predict alike.
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lbb {

enum class LoadModelKind {
  kLast,           // the last step's costs (vt's NaivePersistence)
  kPersistence,    // the median of the last `window` steps (vt's PersistenceMedianLastN)
  kMovingAverage,  // the mean of the last `window` steps
  kLinear,         // the least-squares line through the last `window` steps, one step on
                   // (vt's LinearModel), never below 0
};

struct LoadModelSpec {
  LoadModelKind kind = LoadModelKind::kLast;
  int window = 4;  // steps the model reads, at most (fewer until that many were measured)
};

// The names a config gives (`model: NAME`), in the enum's order.
const std::vector<std::string>& load_model_names();
std::string_view load_model_name(LoadModelKind kind);
LoadModelKind parse_load_model(std::string_view name);  // throws std::invalid_argument

// One phase's model: each step's costs in, the prediction of the next step's out.
class LoadModel {
 public:
  LoadModel(LoadModelSpec spec, int modules);
  // Adds a step's measured costs; returns the prediction of the next, valid until the next call.
  std::span<const double> observe(std::span<const double> cost);

 private:
  double predict(int m) const;

  LoadModelSpec spec_;
  std::vector<std::vector<double>> history_;  // a ring of the last `window` steps' costs
  int observed_ = 0;
  std::vector<double> predicted_;
};

}  // namespace lbb
