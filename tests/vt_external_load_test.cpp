// External load through vt's LBDatafile (issue 49): the export writes each task's owner's load
// level as its attributes.external_load, the import reads it back, and a cost at speed 1 is
// then the recorded time x the recorded speed / (1 + L), the load-free cost.
#include <gtest/gtest.h>

#include <string>

#include "harness/formats/trace.h"
#include "harness/formats/vt_datafile.h"
#include "tests/test_support.h"

namespace lbb {
namespace {

// Two steps of three tasks on two ranks, rank 1 at half speed; rank 0 loaded in both steps.
Trace loaded_trace() {
  Trace t;
  t.steps = 2, t.modules = 3, t.ranks = 2;
  t.task_id = {0, 1, 2};
  t.cost = {1.5, 3.0, 3.0, 1.5, 2.0, 3.0};
  t.owner = {0, 0, 1, 0, 1, 1};
  t.bytes = {0, 0, 0};
  t.speeds = {1.0, 0.5};
  t.load = {0.5, 0.5, 0, 0.25, 0, 0};
  return t;
}

// The trace written as vt's files in `dir`, read back; `texts` gets the files' text.
Trace round_trip(const Trace& t, const testing::TempDir& dir, std::string& texts) {
  for (const auto& [name, text] : vt_files(t)) {
    dir.write(name, text);
    texts += text;
  }
  return read_trace(dir.file("data.*.json"), "vt");
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(VtExternalLoad, ComesBackAndIsTakenOutOfTheSpeedOneCosts) {
  testing::TempDir dir;
  std::string texts;
  const Trace back = round_trip(loaded_trace(), dir, texts);
  EXPECT_EQ(count(texts, "\"external_load\""), 3u);  // the three loaded cells only
  EXPECT_EQ(back.load, loaded_trace().load);
  EXPECT_EQ(back.cost, loaded_trace().cost);  // the times stay as recorded
  const double expected[] = {1.0, 2.0, 1.5, 1.2, 1.0, 1.5};
  for (std::size_t cell = 0; cell < 6; ++cell)
    EXPECT_DOUBLE_EQ(back.nominal(cell), expected[cell]) << "cell " << cell;
}

TEST(VtExternalLoad, AnUnloadedTraceWritesNoneAndReadsNone) {
  testing::TempDir dir;
  Trace t = loaded_trace();
  t.load.clear();
  std::string texts;
  const Trace back = round_trip(t, dir, texts);
  EXPECT_EQ(count(texts, "external_load"), 0u);
  EXPECT_TRUE(back.load.empty());
  EXPECT_DOUBLE_EQ(back.nominal(0), 1.5);
  EXPECT_DOUBLE_EQ(back.nominal(2), 1.5);
}

// A one-task file whose task says attributes.external_load: `level` (JSON text).
std::string read_error(const std::string& level) {
  testing::TempDir dir;
  const std::string path = dir.write(
      "data.0.json",
      R"({"type": "LBDatafile", "metadata": {"rank": 0}, "phases": [{"id": 0, "tasks": [)"
      R"({"entity": {"type": "object", "id": 5, "home": 0, "migratable": true}, "node": 0,)"
      R"( "resource": "cpu", "time": 1.0, "attributes": {"external_load": )" +
          level + "}}]}]}");
  try {
    read_trace(path, "vt");
  } catch (const TraceError& e) {
    return e.what();
  }
  return "";
}

TEST(VtExternalLoad, RefusesALevelThatIsNoneWithItsPath) {
  const std::string at = "phases[0].tasks[0].attributes.external_load";
  for (const std::string level : {"-0.5", "\"high\"", "1e9", "null"}) {
    const std::string error = read_error(level);
    EXPECT_NE(error.find(at), std::string::npos) << level << ": " << error;
  }
  EXPECT_EQ(read_error("0.75"), "");
}

}  // namespace
}  // namespace lbb
