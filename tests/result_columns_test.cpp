// Every result column has its own unit and meaning in the one column table (result_schema.cpp):
// a name that says seconds or bytes has that unit, no two columns of a table share a meaning, and
// every column that a run of each executor and workload writes is described by name, not by the
// generic family ("*", "metric_*") that stands for figures the table does not know. Every runs
// column is a RunRecord field or one of its figures, and a record goes through a part unchanged.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "harness/config/config_loader.h"
#include "harness/results/part_file.h"
#include "harness/results/result_reader.h"
#include "harness/results/result_schema.h"
#include "harness/results/result_writer.h"
#include "harness/run/provenance.h"
#include "harness/run/runner.h"

namespace lbb {
namespace {

// The unit a name's ending says, or "" when it says none.
std::string unit_said(std::string_view name) {
  for (std::string_view end : {"_total", "_per_step"}) {
    if (name.ends_with(end)) name.remove_suffix(end.size());
  }
  if (name.ends_with("seconds") || name.ends_with("_wall") || name == "wall") return "s";
  if (name.ends_with("_bytes") || name == "bytes_moved") return "B";
  return "";
}

TEST(ResultColumns, NamesThatSaySecondsOrBytesHaveThatUnit) {
  for (const TableSpec& t : result_tables())
    for (const ColumnSpec& c : t.columns) {
      const std::string said = unit_said(c.name);
      if (!said.empty()) {
        EXPECT_EQ(c.unit, said) << t.name << "/" << c.name;
      }
    }
}

TEST(ResultColumns, NoTwoColumnsOfATableShareAMeaning) {
  for (const TableSpec& t : result_tables()) {
    std::map<std::string_view, std::string_view> seen;
    for (const ColumnSpec& c : t.columns) {
      EXPECT_FALSE(c.meaning.empty()) << t.name << "/" << c.name;
      const auto [it, fresh] = seen.try_emplace(c.meaning, c.name);
      EXPECT_TRUE(fresh) << t.name << ": " << it->second << " and " << c.name << " both mean \""
                         << c.meaning << "\"";
    }
  }
}

// One small config of each executor and workload: every column its run writes.
const char* const kConfigs[] = {
    // bsp: block_substitution's step metric
    "workload: { kind: block_substitution, blocks: 8, width: 8, mean_lines: 2, sd: 1.0, seed: 3 }\n"
    "balancers: [ { dynamic: none } ]\n",
    // an in-step schedule on threads
    "workload: { kind: block_substitution, blocks: 8, width: 8, mean_lines: 2, sd: 1.0, seed: 3 }\n"
    "balancers: [ { schedule: omp_dynamic, chunk: 1 } ]\n",
    // the asynchronous executor on threads
    "workload: { kind: block_substitution, blocks: 8, width: 8, mean_lines: 2, sd: 1.0, seed: 3 }\n"
    "balancers: [ { dynamic: predictive } ]\n",
    // the simulator, bulk-synchronous and asynchronous
    "workload: { kind: synthetic, model: truncated_normal, mean: 1, sd: 1.0, modules: 16, seed: "
    "1}\n"
    "execution: { executor: simulate }\nbalancers: [ { dynamic: diffusion } ]\n",
    "workload: { kind: synthetic, model: truncated_normal, mean: 1, sd: 1.0, modules: 16, seed: 1, "
    "dependencies: chain }\nexecution: { executor: simulate }\n"
    "balancers: [ { dynamic: predictive } ]\n",
    // level workloads: a UTS tree on threads, a simulated task tree
    "workload: { kind: tree_search, t: 1, a: 3, d: 4, b: 4, r: 19, g: 1, batch: 8 }\n"
    "balancers: [ { dynamic: tree_mesh } ]\n",
    "workload: { kind: task_tree, c_cost: 0.3, min: 4, max: 16, seed: 1 }\n"
    "execution: { executor: simulate }\nbalancers: [ { dynamic: tree_mesh } ]\n",
    // the other workloads' metrics and figures
    "workload: { kind: barnes_hut, particles: 256, curve_modules: 16, seed: 1 }\n"
    "balancers: [ { dynamic: none } ]\n",
    "workload: { kind: trfd, n: 8, seed: 1 }\nbalancers: [ { dynamic: none } ]\n",
    "workload: { kind: matmul, n: 40, r: 40, m: 40, block_rows: 10, seed: 1 }\n"
    "balancers: [ { dynamic: none } ]\n",
};

TEST(ResultColumns, EveryColumnARunWritesIsDescribedByName) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("lbb_columns_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  {
    ResultWriter set(dir.string(), InvocationRecord{});
    const Provenance prov = gather_provenance();
    for (const char* body : kConfigs) {
      const std::string yaml =
          std::string("name: columns\n") + body + "platform: { processors: 2, topology: chain }\n";
      Config config =
          load_config_text(yaml, "columns.yaml", {"execution.steps=2", "execution.warmup=0"});
      ASSERT_FALSE(config.runs.empty()) << yaml;
      const RunOutcome out = execute_run(config.runs.front(), 0, &set, prov);
      EXPECT_TRUE(out.error.empty()) << yaml << out.error;
    }
  }
  const ResultReader back(dir.string());
  std::size_t columns = 0;
  for (TableId id : {TableId::kRuns, TableId::kSteps, TableId::kProcs, TableId::kModules})
    for (const Column& c : back.table(id).columns) {
      const ColumnSpec* spec = find_column(id, c.name);
      ASSERT_NE(spec, nullptr) << c.name;
      EXPECT_EQ(spec->name, c.name) << table_spec(id).name << "/" << c.name
                                    << " is described only by the family " << spec->name;
      ++columns;
    }
  EXPECT_GT(columns, 100u);  // the runs read back hold every table's columns
  std::filesystem::remove_all(dir);
}

// Whether a runs column's field holds its type: text in a string, integers in an int64, float64 in
// a double; none (a figure of RunRecord::figures) only for float64.
bool field_fits(const ColumnSpec& c) {
  switch (c.field.index()) {
    case 0:
      return c.type == ColumnType::kFloat64;
    case 5:
      return c.type == ColumnType::kText;
    case 6:
      return c.type == ColumnType::kInt64 || c.type == ColumnType::kInt32;
    case 7:
      return c.type == ColumnType::kFloat64;
  }
  return false;  // a StepRecord field
}

TEST(ResultColumns, EveryRunsColumnIsARunRecordFieldOrAFigure) {
  std::vector<ColumnField> fields;
  for (const ColumnSpec& c : table_spec(TableId::kRuns).columns) {
    EXPECT_TRUE(field_fits(c)) << "runs/" << c.name;
    if (c.field.index() == 0) continue;
    EXPECT_EQ(std::count(fields.begin(), fields.end(), c.field), 0) << "runs/" << c.name;
    fields.push_back(c.field);
  }
  EXPECT_GT(fields.size(), 60u);
}

// Every field of `r` that the runs table names set to a value of its own, and two figures.
RunRecord distinct_record() {
  RunRecord r;
  int k = 0;
  for (const ColumnSpec& c : table_spec(TableId::kRuns).columns) {
    ++k;
    std::visit(
        [&](auto member) {
          using M = decltype(member);
          if constexpr (std::is_same_v<M, std::string RunRecord::*>)
            r.*member = "text " + std::to_string(k) + " \xc3\xa9";
          else if constexpr (std::is_same_v<M, std::int64_t RunRecord::*>)
            r.*member = 1000 + k;
          else if constexpr (std::is_same_v<M, double RunRecord::*>)
            r.*member = k + 1.0 / 3;
        },
        c.field);
  }
  r.figures = {{"utilization", 0.25}, {"auto_chose_diffusion", 1}};
  return r;
}

std::filesystem::path one_run_set(const std::string& name, const RunRecord& record,
                                  std::string& id) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("lbb_columns_" + name + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  ResultWriter set(dir.string(), InvocationRecord{});
  auto run = set.begin_run(RunLayout{});
  id = run->id();
  run->write_header(record);
  run->end(record);
  return dir;
}

std::vector<RunFigure> sorted(std::vector<RunFigure> figures) {
  std::sort(figures.begin(), figures.end(),
            [](const RunFigure& a, const RunFigure& b) { return a.name < b.name; });
  return figures;
}

TEST(ResultColumns, ARunRecordComesBackAsWritten) {
  RunRecord written = distinct_record();
  std::string id;
  const auto dir = one_run_set("roundtrip", written, id);
  const ResultReader back(dir.string());
  for (const std::string& p : back.problems()) ADD_FAILURE() << p;
  ASSERT_EQ(back.runs().size(), 1u);
  RunRecord read = back.runs()[0];
  written.run = id;  // the writer's
  written.figures = sorted(written.figures);
  read.figures = sorted(read.figures);
  EXPECT_TRUE(read == written);
  for (const ColumnSpec& c : table_spec(TableId::kRuns).columns)  // which, when not
    std::visit(
        [&](auto member) {
          using M = decltype(member);
          if constexpr (std::is_same_v<M, std::string RunRecord::*> ||
                        std::is_same_v<M, std::int64_t RunRecord::*> ||
                        std::is_same_v<M, double RunRecord::*>) {
            EXPECT_EQ(read.*member, written.*member) << "runs/" << c.name;
          }
        },
        c.field);
  EXPECT_TRUE(read.figures == written.figures);
  std::filesystem::remove_all(dir);
}

// `expect`'s `where:` keys and metrics name columns: each is found through the table, its fill is
// no value, and a name of no column is none.
TEST(ResultColumns, EveryRunsColumnIsReadByItsName) {
  const RunRecord r = distinct_record(), blank;
  for (const ColumnSpec& c : table_spec(TableId::kRuns).columns)
    std::visit(
        [&](auto member) {
          using M = decltype(member);
          const std::string name(c.name);
          if constexpr (std::is_same_v<M, std::string RunRecord::*>) {
            EXPECT_EQ(run_text(r, name), r.*member) << name;
            EXPECT_EQ(run_number(r, name), std::nullopt) << name;
          } else if constexpr (std::is_same_v<M, std::int64_t RunRecord::*> ||
                               std::is_same_v<M, double RunRecord::*>) {
            EXPECT_EQ(run_number(r, name), static_cast<double>(r.*member)) << name;
            EXPECT_EQ(run_number(blank, name), std::nullopt) << name;
            EXPECT_EQ(run_text(r, name), std::nullopt) << name;
          }
        },
        c.field);
  EXPECT_EQ(run_number(r, "auto_chose_diffusion"), 1.0);  // a family's member
  EXPECT_EQ(run_number(r, "utilization"), 0.25);
  EXPECT_EQ(run_number(blank, "utilization"), std::nullopt);
  EXPECT_EQ(run_text(r, "no_such_column"), std::nullopt);
  EXPECT_EQ(run_number(r, "no_such_column"), std::nullopt);
}

// A part of schema version 4 named results_seconds archive_seconds: read under the new name.
TEST(ResultColumns, AVersion4PartsArchiveSecondsIsReadAsResultsSeconds) {
  RunRecord written = distinct_record();
  std::string id;
  const auto dir = one_run_set("v4", written, id);
  const std::string part = (*std::filesystem::directory_iterator(dir)).path().string();
  {
    H5Id file(H5Fopen(part.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose, part);
    h5_check(H5Lmove(file.get(), "runs/results_seconds", file.get(), "runs/archive_seconds",
                     H5P_DEFAULT, H5P_DEFAULT),
             "rename");
    h5_check(H5Adelete(file.get(), "schema_version"), "schema_version");
    write_int_attribute(file.get(), "schema_version", 4);
  }
  reseal_part(part);
  const ResultReader back(dir.string());
  for (const std::string& p : back.problems()) ADD_FAILURE() << p;
  ASSERT_EQ(back.runs().size(), 1u);
  EXPECT_EQ(back.runs()[0].results_seconds, written.results_seconds);
  EXPECT_EQ(run_number(back.runs()[0], "results_seconds"), written.results_seconds);  // by name too
  EXPECT_TRUE(back.table(TableId::kRuns).find("results_seconds"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace lbb
