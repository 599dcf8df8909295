#include <gtest/gtest.h>

#include <cstring>

#include "kernels/matmul.h"
#include "tests/serial_driver.h"
#include "workloads/matmul.h"

namespace lbb {
namespace {

using testing::make_workload;
using testing::run_serially;

TEST(MatmulKernel, MatchesTheDefinition) {
  const int rows = 3, r = 4, m = 5;
  std::vector<double> x(rows * r), y(r * m), z(rows * m, -1);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.5 * i - 2;
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = 1.0 / (1 + i);
  kernels::row_block_product(rows, r, m, x, y, z);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < m; ++j) {
      double want = 0;
      for (int k = 0; k < r; ++k) want += x[i * r + k] * y[k * m + j];
      EXPECT_NEAR(z[i * m + j], want, 1e-14);
    }
  std::vector<double> short_z(rows * m - 1);
  EXPECT_THROW(kernels::row_block_product(rows, r, m, x, y, short_z), std::invalid_argument);
}

std::unique_ptr<Workload> small() {
  return make_workload("matmul", {"n=101", "r=64", "m=48", "block_rows=10"});
}

// Z entries start after the 64-byte header and the rows x r block of X.
double* z_of(std::span<std::byte> state, int rows, int r) {
  return reinterpret_cast<double*>(state.data() + 64) + static_cast<std::size_t>(rows) * r;
}

TEST(MatmulWorkload, RowBlocksAndWeights) {
  auto w = small();
  ASSERT_EQ(w->module_count(), 11);
  const auto weights = w->predicted_weights();
  EXPECT_DOUBLE_EQ(weights[0], 2.0 * 10 * 64 * 48);
  EXPECT_DOUBLE_EQ(weights[10], 2.0 * 1 * 64 * 48);  // the last block has one row
  EXPECT_EQ(w->state_bytes(10), 64 + 8u * (64 + 48));
}

TEST(MatmulWorkload, SerialRunVerifies) {
  auto w = small();
  VectorModuleStates states(*w);
  run_serially(*w, states, 0, 3);
  const Verification v = w->verify(states, 3);
  EXPECT_TRUE(v.passed) << v.detail;
  EXPECT_NEAR(v.checksum, v.reference_checksum, 1e-9 * std::abs(v.reference_checksum));
  EXPECT_DOUBLE_EQ(w->step_metric_values(0)[0], w->step_metric_values(2)[0]);
}

TEST(MatmulWorkload, CorruptedProductEntryIsCaught) {
  auto w = small();
  VectorModuleStates states(*w);
  run_serially(*w, states, 0, 2);
  z_of(states.state(4), 10, 64)[17] += 1e-7;
  const Verification v = w->verify(states, 2);
  EXPECT_FALSE(v.passed) << v.detail;
}

TEST(MatmulWorkload, CorruptedInputRowIsCaughtAfterTheNextStep) {
  auto w = small();
  VectorModuleStates states(*w);
  run_serially(*w, states, 0, 1);
  reinterpret_cast<double*>(states.state(7).data() + 64)[5] *= 1.001;  // an entry of X
  run_serially(*w, states, 1, 1);
  EXPECT_FALSE(w->verify(states, 2).passed);
}

TEST(MatmulWorkload, StepThatWasNotRunIsCaught) {
  auto w = small();
  VectorModuleStates states(*w);
  run_serially(*w, states, 0, 2);
  EXPECT_FALSE(w->verify(states, 3).passed);  // claims three steps, the history has two
}

TEST(MatmulWorkload, BadHeaderIsCaught) {
  auto w = small();
  VectorModuleStates states(*w);
  run_serially(*w, states, 0, 1);
  std::memset(states.state(3).data(), 0, 4);  // module index 3 -> 0
  const Verification v = w->verify(states, 1);
  EXPECT_FALSE(v.passed);
  EXPECT_NE(v.detail.find("module 3"), std::string::npos) << v.detail;
}

}  // namespace
}  // namespace lbb
