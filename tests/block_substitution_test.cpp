#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "kernels/block_substitution.h"
#include "tests/serial_driver.h"
#include "workloads/block_substitution.h"
#include "workloads/vector_module_states.h"

namespace lbb {
namespace {

// Blocks of equal height copy one factorisation: each state's factor must still be, bit for bit,
// the Cholesky factor of its own block's band, whatever heights its neighbours have.
TEST(BlockSubstitution, EveryStateHoldsTheFactorOfItsOwnBlock) {
  auto made = testing::make_workload("block_substitution",
                                     {"blocks=40", "width=6", "mean_lines=4", "sd=1.5", "seed=7"});
  auto& w = dynamic_cast<BlockSubstitution&>(*made);
  const std::vector<int>& lines = w.block_lines();
  const std::set<int> distinct(lines.begin(), lines.end());
  ASSERT_GE(distinct.size(), 3u);            // several heights...
  ASSERT_LT(distinct.size(), lines.size());  // ...and some shared
  VectorModuleStates states(w);
  for (int m = 0; m < w.module_count(); ++m) {
    const int n = lines[m] * 6;
    std::vector<double> own(kernels::band_storage(n, 6));
    kernels::poisson_block_band(lines[m], 6, own);
    ASSERT_EQ(kernels::band_cholesky(n, 6, own), 0);
    const std::span<double> held = BlockSubstitution::factor(states.state(m));
    ASSERT_EQ(held.size(), own.size()) << "module " << m;
    EXPECT_EQ(std::memcmp(held.data(), own.data(), held.size_bytes()), 0) << "module " << m;
  }
}

}  // namespace
}  // namespace lbb
