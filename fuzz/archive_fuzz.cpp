// libFuzzer target for the archive reader. The input does not become the file's bytes (that
// mostly fuzzes HDF5's own decoder); it is decoded into an HDF5 file of lbbench's shape built
// with the HDF5 API, with what a hostile h5py user can put there: objects of any class, type and
// shape where the reader expects others, and soft, external and dangling links. The reader is
// then asked for everything, and the writer's check of an output file runs on it. Any outcome but
// data or an ArchiveError is a finding.
#include <fuzzer/FuzzedDataProvider.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "harness/archive/archive.h"
#include "harness/archive/archive_file.h"

namespace {

const char* const kNames[] = {"processors",  "modules", "label",    "workload",  "steps",
                              "config_yaml", "busy",    "makespan", "imbalance", "step",
                              "module",      "cost",    "owner",    "metric",    "x",
                              "run_id",      "status"};

// What a run table (run_tables.h) holds, for children of /tables/<table>.
const char* const kTableNames[] = {"run_id",  "step_rows", "attr", "text",
                                   "present", "step",      "proc", "module"};

// Step datasets the reader is asked for, of both layouts.
const char* const kDatasets[] = {"step/makespan", "proc/busy", "module/cost", "module/owner",
                                 "metric/x",      "makespan",  "busy"};

std::string pick_name(FuzzedDataProvider& in) {
  if (in.ConsumeBool()) return in.PickValueInArray(kNames);
  std::string s = in.ConsumeRandomLengthString(12);
  return s.empty() || s.find('/') != std::string::npos || s == "." ? "n" : s;
}

// A datatype the reader might meet: integers and floats of several sizes, strings, compounds.
hid_t make_type(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 6)) {
    case 0:
      return H5Tcopy(H5T_NATIVE_INT64);
    case 1:
      return H5Tcopy(H5T_NATIVE_INT8);
    case 2:
      return H5Tcopy(H5T_NATIVE_FLOAT);
    case 3: {
      hid_t t = H5Tcopy(H5T_C_S1);
      H5Tset_size(t, in.ConsumeIntegralInRange<std::size_t>(1, 64));
      return t;
    }
    case 4: {
      hid_t t = H5Tcopy(H5T_C_S1);
      H5Tset_size(t, H5T_VARIABLE);
      return t;
    }
    case 5: {
      hid_t t = H5Tcreate(H5T_COMPOUND, 16);
      H5Tinsert(t, "a", 0, H5T_NATIVE_DOUBLE);
      H5Tinsert(t, "b", 8, H5T_NATIVE_INT64);
      return t;
    }
    default:
      return H5Tcopy(H5T_NATIVE_DOUBLE);
  }
}

// A dataspace: scalar, null, or simple of rank 1-3 with small extents.
hid_t make_space(FuzzedDataProvider& in) {
  const int kind = in.ConsumeIntegralInRange(0, 5);
  if (kind == 0) return H5Screate(H5S_SCALAR);
  if (kind == 1) return H5Screate(H5S_NULL);
  const int rank = in.ConsumeIntegralInRange(1, 3);
  hsize_t dims[3];
  for (int i = 0; i < rank; ++i)
    dims[i] = in.ConsumeIntegralInRange<hsize_t>(0, rank == 1 ? 4096 : 40);
  return H5Screate_simple(rank, dims, nullptr);
}

// Fills an attribute or dataset with bytes of the input (variable-length strings get
// pointers to one fixed text instead).
std::vector<unsigned char> payload(FuzzedDataProvider& in, hid_t type, hid_t space) {
  const hssize_t n = H5Sget_select_npoints(space);
  if (H5Tis_variable_str(type) > 0) {
    static const char* text = "x";
    std::vector<unsigned char> out(static_cast<std::size_t>(n > 0 ? n : 1) * sizeof(char*));
    for (std::size_t i = 0; i < out.size(); i += sizeof(char*))
      std::memcpy(out.data() + i, &text, sizeof(char*));
    return out;
  }
  std::vector<unsigned char> out(static_cast<std::size_t>(n > 0 ? n : 1) * H5Tget_size(type));
  const std::vector<unsigned char> bytes = in.ConsumeBytes<unsigned char>(out.size());
  std::copy(bytes.begin(), bytes.end(), out.begin());
  return out;
}

void add_attribute(FuzzedDataProvider& in, hid_t object) {
  const std::string name = pick_name(in);
  const hid_t type = make_type(in), space = make_space(in);
  const hid_t a = H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
  if (a >= 0) {
    const auto data = payload(in, type, space);
    H5Awrite(a, type, data.data());
    H5Aclose(a);
  }
  H5Tclose(type);
  H5Sclose(space);
}

void add_dataset(FuzzedDataProvider& in, hid_t group, const std::string& name) {
  const hid_t type = make_type(in), space = make_space(in);
  const hid_t d =
      H5Dcreate2(group, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (d >= 0) {
    const auto data = payload(in, type, space);
    H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
    if (in.ConsumeBool()) add_attribute(in, d);
    H5Dclose(d);
  }
  H5Tclose(type);
  H5Sclose(space);
}

// One child of a group: a group, a dataset or a link of some kind.
void add_child(FuzzedDataProvider& in, hid_t group, int depth, const std::string& name) {
  switch (in.ConsumeIntegralInRange(0, 4)) {
    case 0: {
      const hid_t g = H5Gcreate2(group, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      if (g < 0) return;
      const int n = in.ConsumeIntegralInRange(0, depth < 2 ? 6 : 0);
      for (int i = 0; i < n; ++i)
        in.ConsumeBool() ? add_attribute(in, g) : add_child(in, g, depth + 1, pick_name(in));
      H5Gclose(g);
      return;
    }
    case 1:
      H5Lcreate_soft(in.ConsumeBool() ? "/runs" : "/nowhere", group, name.c_str(), H5P_DEFAULT,
                     H5P_DEFAULT);
      return;
    case 2:
      H5Lcreate_external("/nonexistent_lbb_fuzz.h5", "/runs", group, name.c_str(), H5P_DEFAULT,
                         H5P_DEFAULT);
      return;
    default:
      add_dataset(in, group, name);
  }
}

// /tables: run tables of the names and shapes the reader expects, or anything else.
void add_tables(FuzzedDataProvider& in, hid_t file) {
  if (in.ConsumeBool()) return add_child(in, file, 1, "tables");
  const hid_t tables = H5Gcreate2(file, "/tables", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  for (int t = in.ConsumeIntegralInRange(0, 3); t > 0; --t) {
    const std::string name = in.ConsumeBool() ? "t-0000" + std::to_string(t) : pick_name(in);
    const hid_t table = H5Gcreate2(tables, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (table < 0) continue;
    for (int i = in.ConsumeIntegralInRange(0, 8); i > 0; --i)
      add_child(in, table, 1, in.ConsumeBool() ? in.PickValueInArray(kTableNames) : pick_name(in));
    H5Gclose(table);
  }
  H5Gclose(tables);
}

void build_file(FuzzedDataProvider& in, const std::string& path) {
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) return;
  const int top = in.ConsumeIntegralInRange(0, 3);
  if (top == 0) {
    const hid_t runs = H5Gcreate2(file, "/runs", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    const int n = in.ConsumeIntegralInRange(0, 4);
    for (int i = 0; i < n; ++i) add_child(in, runs, 0, pick_name(in));
    if (in.ConsumeBool()) add_attribute(in, runs);
    H5Gclose(runs);
  } else {
    add_child(in, file, 1, "runs");  // "/runs" as a dataset, a link or an empty group
  }
  if (in.ConsumeBool()) add_tables(in, file);
  for (int i = in.ConsumeIntegralInRange(0, 2); i > 0; --i) add_attribute(in, file);
  H5Fclose(file);
}

void read_everything(const std::string& path) {
  try {
    lbb::ArchiveReader reader(path);
    try {
      lbb::h5::count_runs(reader.file(), path);
    } catch (const lbb::ArchiveError&) {
    }
    for (const auto& run : reader.runs()) {
      for (const char* name : kDatasets) try {
          std::size_t rows = 0, cols = 0;
          reader.read_matrix(run.id, name, rows, cols);
        } catch (const lbb::ArchiveError&) {
        }
      try {
        reader.read_run(run.id);  // what merge copies
      } catch (const lbb::ArchiveError&) {
      }
    }
  } catch (const lbb::ArchiveError&) {
  }
  try {
    lbb::check_output_archive(path);  // what `run -o` checks before it writes
  } catch (const lbb::ArchiveError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // HDF5's own error stack print is noise here
    return "/tmp/lbb_fuzz_archive_" + std::to_string(getpid()) + ".h5";
  }();
  FuzzedDataProvider in(data, size);
  build_file(in, path);
  read_everything(path);
  return 0;
}
