// `dynamic: auto`'s profile: the bytes a migration copies come from the workload's module
// states, and a workload of two phases (TRFD) is predicted phase by phase, each phase a share of
// the measured step cost.
#include "harness/papers/auto_choice.h"

#include <gtest/gtest.h>

#include <numeric>

#include "harness/base/clock.h"
#include "harness/config/run_spec.h"
#include "harness/run/reference_cache.h"

namespace lbb {
namespace {

// `dynamic: auto` runs through the runner's registry, as under `lbbench run`.
[[maybe_unused]] const bool kAutoRegistered = (register_auto_choice(), true);

RunSpec spec_of(const std::string& workload, Params given) {
  RunSpec spec;
  spec.workload = workload;
  spec.workload_params = resolve_params(find_workload(workload)->params, given);
  return spec;
}

TEST(AutoChoiceProfile, TrfdHasTwoPhaseSharesAndItsStateBytes) {
  Params given;
  given.set("n", std::int64_t{12});
  const RunSpec spec = spec_of("trfd", given);
  const ProfileShape shape = profile_shape(spec);
  const std::unique_ptr<Workload> w = find_workload("trfd")->make(spec.workload_params);
  double bytes = 0;
  for (int m = 0; m < w->module_count(); ++m) bytes += static_cast<double>(w->state_bytes(m));
  EXPECT_NEAR(shape.bytes_per_module, bytes / w->module_count(), 1e-9);
  EXPECT_GT(shape.bytes_per_module, 0.0);
  ASSERT_EQ(shape.phase_share.size(), 2u);
  for (int m = 0; m < w->module_count(); ++m) {
    EXPECT_NEAR(shape.phase_share[0][m] + shape.phase_share[1][m], 1.0, 1e-12) << m;
    EXPECT_GT(shape.phase_share[1][m], 0.0) << m;
  }
}

TEST(AutoChoiceProfile, MatmulIsOnePhase) {
  Params given;
  given.set("n", std::int64_t{40});
  given.set("r", std::int64_t{40});
  given.set("m", std::int64_t{40});
  given.set("block_rows", std::int64_t{10});
  const ProfileShape shape = profile_shape(spec_of("matmul", given));
  EXPECT_TRUE(shape.phase_share.empty());
  EXPECT_GT(shape.bytes_per_module, 0.0);
}

// Two processors, four modules; the phases split each module's cost 1/4 : 3/4. Each phase's
// profile carries its share; the phases add up to the one-phase profile.
TEST(AutoChoiceProfile, PhaseProfilesSplitTheMeasuredCost) {
  StepRecord r;
  r.busy = {0.0, 0.0};
  r.external_load = {0.0, 0.0};
  r.module_owner = {0, 0, 1, 1};
  r.module_cost = {1.0, 2.0, 3.0, 4.0};
  ProfileShape one;
  one.bytes_per_module = 100;
  const std::vector<SchemeProfile> whole = profile_from_records({r, r}, {}, one);
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_EQ(whole[0].work, (std::vector<double>{3.0, 7.0}));
  EXPECT_EQ(whole[0].bytes_per_module, 100);
  ProfileShape two = one;
  two.phase_share = {{0.25, 0.25, 0.25, 0.25}, {0.75, 0.75, 0.75, 0.75}};
  const std::vector<SchemeProfile> phases = profile_from_records({r, r}, {}, two);
  ASSERT_EQ(phases.size(), 2u);
  for (int p = 0; p < 2; ++p) {
    EXPECT_NEAR(phases[0].work[p], 0.25 * whole[0].work[p], 1e-12);
    EXPECT_NEAR(phases[1].work[p], 0.75 * whole[0].work[p], 1e-12);
  }
  EXPECT_NEAR(phases[1].largest_module, 3.0, 1e-12);
  // No balancing: the candidate `none` predicts steps x the slowest processor, phase by phase.
  Params given;
  given.set("candidates", std::string("none"));
  const Params p = resolve_params(find_balancer("auto")->params, given);
  EXPECT_NEAR(predict_candidates(p, phases, 5)[0].total, 5 * 7.0, 1e-9);
}

// The profile an auto run takes first is in the run's costs (`run --costs`): building and running
// it as the strategy's own work, its serial reference and verification as the harness's; none of
// it falls into the invocation's rest. Here the profile (40 steps) dwarfs the run (1 step).
TEST(AutoChoiceCosts, TheProfileIsInTheRunsCosts) {
  const Config config = load_config_text(
      "name: t\nworkload: { kind: block_substitution, blocks: 16, width: 32, mean_lines: 4, sd: "
      "1.0, "
      "seed: 3 }\nplatform: { processors: 2, topology: chain }\nexecution: { steps: 1 }\n"
      "balancers: [ { dynamic: auto, candidates: \"gcdlb,none\", group_size: 2, profile_steps: 40 "
      "} "
      "]\n",
      "t.yaml");
  const Provenance provenance = gather_provenance();
  const double c0 = process_cpu_now();
  const RunOutcome out = execute_run(config.runs.front(), 0, nullptr, provenance);
  const double spent = process_cpu_now() - c0;
  ASSERT_TRUE(out.ok()) << out.error;
  const RunCosts& c = out.costs;
  EXPECT_GT(c.setup + c.run + c.reference + c.verify + c.archive, 0.8 * spent)
      << "run " << c.run << " reference " << c.reference << " of " << spent << " s";
  EXPECT_GT(c.balancing, 0.5 * c.run);  // the profile's run, most of this run's
  EXPECT_GT(c.reference, 0.0);
}

// The profile's serial reference is shared like a run's: 3 repetitions of an auto entry compute
// two references (the profile's problem, the run's), not six.
TEST(AutoChoiceCosts, TheProfilesReferenceIsComputedOncePerProblem) {
  const Config config = load_config_text(
      "name: t\nworkload: { kind: block_substitution, blocks: 16, width: 32, mean_lines: 4, sd: "
      "1.0, seed: 3 }\nplatform: { processors: 2, topology: chain }\n"
      "execution: { steps: 3, repetitions: 3 }\n"
      "balancers: [ { dynamic: auto, candidates: \"gcdlb,none\", group_size: 2, profile_steps: 2 "
      "} ]\n",
      "t.yaml");
  const Provenance provenance = gather_provenance();
  const RunSpec& spec = config.runs.front();
  ReferenceCache references;
  for (int rep = 0; rep < spec.repetitions; ++rep) expect_references(references, spec);
  for (int rep = 0; rep < spec.repetitions; ++rep) {
    const RunOutcome out = execute_run(spec, rep, nullptr, provenance, &references);
    ASSERT_TRUE(out.ok()) << out.error;
    EXPECT_TRUE(out.verification.passed);
  }
  EXPECT_EQ(references.computed(), 2);
  EXPECT_EQ(references.held(), 0u);  // each dropped after its last run
}

}  // namespace
}  // namespace lbb
