#include <gtest/gtest.h>

#include <cstdlib>

#include "harness/results/result_writer.h"
#include "harness/run/provenance.h"

namespace lbb {
namespace {

TEST(Provenance, RecordsEveryOmpVariableTheTopologyAndTheBuild) {
  setenv("OMP_SCHEDULE", "guided,7", 1);
  setenv("OMP_DISPLAY_ENV", "false", 1);
  const Provenance p = gather_provenance();
  EXPECT_NE(p.omp_env.find("OMP_SCHEDULE=guided,7"), std::string::npos) << p.omp_env;
  EXPECT_NE(p.omp_env.find("OMP_DISPLAY_ENV=false"), std::string::npos) << p.omp_env;
  EXPECT_NE(p.hwloc_xml.find("<topology"), std::string::npos);
  EXPECT_FALSE(p.openblas_core.empty());
  EXPECT_FALSE(p.build_type.empty());
  EXPECT_EQ(p.git_dirty, p.git_sha.ends_with("-dirty"));
  EXPECT_FALSE(p.invocation.empty());
  EXPECT_NE(p.invocation, gather_provenance().invocation);
  unsetenv("OMP_SCHEDULE");
  unsetenv("OMP_DISPLAY_ENV");
}

TEST(Provenance, InvocationRecordHoldsEveryColumnOfTheSchema) {
  const InvocationRecord r = invocation_record(gather_provenance(), "lbbench run x", "1/4");
  for (const ColumnSpec& a : table_spec(TableId::kInvocations).columns) {
    if (a.name == "invocation") continue;  // the record's id
    bool found = false;
    for (const auto& [name, value] : r.attributes) found |= name == a.name;
    EXPECT_TRUE(found) << a.name;
  }
}

TEST(Provenance, WarnsWhenOpenBlasFellBackToAGenericKernel) {
  Provenance p;
  p.cpu_model = "some Xeon";
  p.openblas_core = "Prescott";
  const bool avx2 = __builtin_cpu_supports("avx2");
  EXPECT_EQ(openblas_fallback_warning(p).empty(), !avx2);
  p.openblas_core = "SkylakeX";
  EXPECT_TRUE(openblas_fallback_warning(p).empty());
}

TEST(Provenance, RandomHexHasTwoDigitsAByteAndDiffersBetweenCalls) {
  for (const int bytes : {1, 3, 4, 5, 16}) {
    const std::string a = random_hex(bytes), b = random_hex(bytes);
    EXPECT_EQ(a.size(), 2u * bytes);
    EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos) << a;
    if (bytes >= 4) {
      EXPECT_NE(a, b);  // 2^-32 to fail by chance
    }
  }
}

}  // namespace
}  // namespace lbb
