#include <gtest/gtest.h>

#include "core/params.h"

namespace lbb {
namespace {

std::vector<ParamSpec> specs() {
  return {
      real_param("alpha", 0.5, "", 0.0, 1.0),
      required(int_param("count", 0, "", 1)),
      string_param("mode", "a", "", {"a", "b"}),
      reals_param("speeds", {1.0}, "", 0.001),
  };
}

TEST(Params, DefaultsFillWhatIsNotGiven) {
  Params given;
  given.set("count", std::int64_t{3});
  Params p = resolve_params(specs(), given);
  EXPECT_EQ(p.integer("count"), 3);
  EXPECT_DOUBLE_EQ(p.real("alpha"), 0.5);
  EXPECT_EQ(p.text("mode"), "a");
}

TEST(Params, MissingRequiredIsAnError) {
  EXPECT_THROW(resolve_params(specs(), Params{}), ParamError);
}

TEST(Params, OutOfRangeUnknownAndWrongTypeAreErrors) {
  Params p;
  p.set("count", std::int64_t{0});
  EXPECT_THROW(resolve_params(specs(), p), ParamError);
  Params q;
  q.set("count", std::int64_t{1});
  q.set("beta", 1.0);
  EXPECT_THROW(resolve_params(specs(), q), ParamError);
  Params r;
  r.set("count", std::string("x"));
  EXPECT_THROW(resolve_params(specs(), r), ParamError);
  Params s;
  s.set("count", std::int64_t{1});
  s.set("mode", std::string("c"));
  EXPECT_THROW(resolve_params(specs(), s), ParamError);
}

TEST(Params, IntegerGivenForARealReadsAsReal) {
  Params p;
  p.set("count", std::int64_t{1});
  p.set("alpha", std::int64_t{1});
  EXPECT_DOUBLE_EQ(resolve_params(specs(), p).real("alpha"), 1.0);
}

TEST(Params, TextFormParsesEveryType) {
  Params p;
  auto s = specs();
  set_param_from_text(s, "count=7", p);
  set_param_from_text(s, "alpha=0.25", p);
  set_param_from_text(s, "speeds=1,0.5,2", p);
  EXPECT_EQ(p.integer("count"), 7);
  EXPECT_DOUBLE_EQ(p.real("alpha"), 0.25);
  EXPECT_EQ(p.reals("speeds"), (std::vector<double>{1, 0.5, 2}));
  EXPECT_THROW(set_param_from_text(s, "count=7.5", p), ParamError);
  EXPECT_THROW(set_param_from_text(s, "alpha=2", p), ParamError);
  EXPECT_THROW(set_param_from_text(s, "speeds=1,,2", p), ParamError);
  EXPECT_THROW(set_param_from_text(s, "nokey", p), ParamError);
}

}  // namespace
}  // namespace lbb
