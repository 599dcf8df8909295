// Property: Workload::phase_outputs names everything a module's run leaves for other modules and
// for finish_step, which is all that a run across MPI ranks copies between them (harness/mpi/).
// Two instances of a workload stand for two ranks: each runs the modules it owns (a changing
// half), then takes the other's outputs and, where finish_step reads every state, its states;
// both must then verify against the serial reference. Leaving one output out fails it.
#include <gtest/gtest.h>

#include <cstring>

#include "tests/serial_driver.h"

namespace lbb {
namespace {

using testing::make_workload;

struct Rank {
  std::unique_ptr<Workload> workload;
  std::unique_ptr<VectorModuleStates> states;
};

// The owner of module m in step s: pairs of neighbours that change sides every step, so states
// cross "ranks" and a module's neighbours ran on the other one in the step before.
int owner(int m, int s) {
  return (m / 2 + s) % 2;
}

// Copies what the owner's instance wrote into the other's: its outputs of the phase, and with
// `states` the module's state. `skip`: one output index left out, to show the test can fail.
void exchange(Rank (&ranks)[2], int s, int ph, bool states, int skip = -1) {
  const int M = ranks[0].workload->module_count();
  for (int m = 0; m < M; ++m) {
    Rank& from = ranks[owner(m, s)];
    Rank& to = ranks[1 - owner(m, s)];
    std::vector<std::span<std::byte>> out, in;
    ASSERT_TRUE(from.workload->phase_outputs(m, s, ph, out));
    ASSERT_TRUE(to.workload->phase_outputs(m, s, ph, in));
    ASSERT_EQ(out.size(), in.size());
    for (std::size_t k = 0; k < out.size(); ++k) {
      ASSERT_EQ(out[k].size(), in[k].size());
      if (static_cast<int>(k) != skip) std::memcpy(in[k].data(), out[k].data(), out[k].size());
    }
    if (!states) continue;
    const std::span<std::byte> state = from.states->state(m);
    to.states->resize(m, state.size());
    std::memcpy(to.states->state(m).data(), state.data(), state.size());
  }
}

Verification run_on_two(std::string_view name, std::initializer_list<std::string_view> settings,
                        int steps, int skip = -1) {
  Rank ranks[2];
  for (Rank& r : ranks) {
    r.workload = make_workload(name, settings);
    r.states = std::make_unique<VectorModuleStates>(*r.workload);
  }
  Workload& w = *ranks[0].workload;
  for (int s = 0; s < steps; ++s) {
    for (int ph = 0; ph < w.phases(); ++ph) {
      for (int m = 0; m < w.module_count(); ++m) {
        Rank& r = ranks[owner(m, s)];
        r.workload->run_module(m, s, ph, r.states->state(m));
      }
      exchange(ranks, s, ph, ph + 1 == w.phases(), skip);  // states move at the step's end
    }
    for (Rank& r : ranks) r.workload->finish_step(s, *r.states);
  }
  return ranks[1].workload->verify(*ranks[1].states, steps);
}

TEST(PhaseOutputs, TwoInstancesExchangingThemVerify) {
  EXPECT_TRUE(run_on_two("matmul", {"n=40", "r=20", "m=16", "block_rows=4"}, 3).passed);
  EXPECT_TRUE(run_on_two("trfd", {"n=8"}, 3).passed);
  EXPECT_TRUE(run_on_two("block_substitution", {"blocks=8", "width=8"}, 6).passed);
  EXPECT_TRUE(run_on_two("barnes_hut", {"particles=600", "cells_per_side=3", "drift=1"}, 4).passed);
}

TEST(PhaseOutputs, LeavingOneOutTheResultFails) {
  EXPECT_FALSE(run_on_two("trfd", {"n=8"}, 3, 0).passed);  // the transposed rows
  EXPECT_FALSE(run_on_two("block_substitution", {"blocks=8", "width=8"}, 6, 0).passed);
  EXPECT_FALSE(run_on_two("barnes_hut", {"particles=600", "cells_per_side=3", "drift=1"}, 4, 0)
                   .passed);  // the kinetic energies
}

}  // namespace
}  // namespace lbb
