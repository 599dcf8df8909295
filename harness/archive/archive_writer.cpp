#include <sys/stat.h>
#include <filesystem>

#include "harness/archive/archive.h"

namespace lbb {

namespace {

constexpr unsigned kDeflateLevel = 4;

h5::Handle text_type() {
  auto t = h5::datatype(H5Tcopy(H5T_C_S1), "string type");
  H5Tset_size(t.get(), H5T_VARIABLE);
  H5Tset_cset(t.get(), H5T_CSET_UTF8);
  return t;
}

void replace_attribute(hid_t obj, const std::string& name) {
  if (H5Aexists(obj, name.c_str()) > 0) h5::check(H5Adelete(obj, name.c_str()), "delete " + name);
}

}  // namespace

// One extendible, chunked, compressed dataset of [rows] or [rows, cols].
struct RunWriter::Series {
  h5::Handle dataset;
  hid_t mem_type;
  hsize_t cols;  // 0: one-dimensional
};

namespace {

h5::Handle make_series(hid_t group, const std::string& name, hid_t file_type, hsize_t cols) {
  const int rank = cols == 0 ? 1 : 2;
  hsize_t dims[2] = {0, cols};
  hsize_t maxdims[2] = {H5S_UNLIMITED, cols};
  // Small chunks keep the per-step flush cheap; about 64 KiB of data a chunk at most.
  const hsize_t width = cols == 0 ? 1 : cols;
  hsize_t chunk[2] = {std::max<hsize_t>(1, std::min<hsize_t>(256, 8192 / width)), width};
  auto space = h5::dataspace(H5Screate_simple(rank, dims, maxdims), name);
  auto dcpl = h5::plist(H5Pcreate(H5P_DATASET_CREATE), name);
  h5::check(H5Pset_chunk(dcpl.get(), rank, chunk), "chunk " + name);
  if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) {
    H5Pset_shuffle(dcpl.get());
    H5Pset_deflate(dcpl.get(), kDeflateLevel);
  }
  auto lcpl = h5::plist(H5Pcreate(H5P_LINK_CREATE), name);
  H5Pset_create_intermediate_group(lcpl.get(), 1);
  return h5::dataset(
      H5Dcreate2(group, name.c_str(), file_type, space.get(), lcpl.get(), dcpl.get(), H5P_DEFAULT),
      "create dataset " + name);
}

void append_row(hid_t dataset, hid_t mem_type, hsize_t cols, hsize_t row, const void* data) {
  const int rank = cols == 0 ? 1 : 2;
  hsize_t size[2] = {row + 1, cols};
  h5::check(H5Dset_extent(dataset, size), "extend dataset");
  auto file_space = h5::dataspace(H5Dget_space(dataset), "dataset space");
  hsize_t start[2] = {row, 0};
  hsize_t count[2] = {1, cols == 0 ? 1 : cols};
  h5::check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr),
            "select row");
  auto mem_space = h5::dataspace(H5Screate_simple(rank, count, nullptr), "row space");
  h5::check(H5Dwrite(dataset, mem_type, mem_space.get(), file_space.get(), H5P_DEFAULT, data),
            "write row");
}

}  // namespace

RunWriter::RunWriter(hid_t file, std::string id, const RunLayout& layout)
    : file_(file), id_(std::move(id)), layout_(layout) {
  auto lcpl = h5::plist(H5Pcreate(H5P_LINK_CREATE), "lcpl");
  H5Pset_create_intermediate_group(lcpl.get(), 1);
  group_ =
      h5::group(H5Gcreate2(file, ("/runs/" + id_).c_str(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
                "create run group " + id_);
  const hsize_t P = layout.processors;
  const hsize_t M = layout.modules;
  auto add = [&](const std::string& name, hid_t file_type, hid_t mem_type, hsize_t cols) {
    series_.push_back(std::make_unique<Series>(
        Series{make_series(group_.get(), name, file_type, cols), mem_type, cols}));
  };
  // The order here is the order on_step writes in.
  add("step/wall", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0);
  add("step/compute_wall", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0);
  add("step/makespan", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0);
  add("step/ideal", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0);
  add("step/serial", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0);
  add("step/balance", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0);
  add("step/balance_wall", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0);
  add("step/migrations", H5T_STD_I64LE, H5T_NATIVE_INT64, 0);
  add("step/bytes_moved", H5T_STD_I64LE, H5T_NATIVE_INT64, 0);
  add("step/predicted_before", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0);
  add("step/predicted_after", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0);
  add("proc/busy", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, P);
  add("proc/busy_wall", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, P);
  add("proc/idle", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, P);
  add("proc/balance", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, P);
  add("proc/migration", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, P);
  add("proc/external_load", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, P);
  add("proc/triggered", H5T_STD_I32LE, H5T_NATIVE_INT32, P);
  if (layout.record_modules) {
    add("module/cost", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, M);
    add("module/owner", H5T_STD_I32LE, H5T_NATIVE_INT32, M);
  }
  for (const auto& metric : layout.metrics)
    add("metric/" + metric, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0);
}

RunWriter::~RunWriter() {
  series_.clear();
  group_.reset();
  H5Fflush(file_, H5F_SCOPE_LOCAL);
}

namespace {

// Creates (or replaces) a scalar attribute of obj and writes one value into it.
void write_scalar_attribute(hid_t obj, const std::string& name, hid_t file_type, hid_t mem_type,
                            const void* value) {
  replace_attribute(obj, name);
  auto space = h5::dataspace(H5Screate(H5S_SCALAR), name);
  auto attr =
      h5::attribute(H5Acreate2(obj, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                    "attribute " + name);
  h5::check(H5Awrite(attr.get(), mem_type, value), "write attribute " + name);
}

}  // namespace

void RunWriter::set_text(const std::string& name, const std::string& value) {
  auto type = text_type();
  const char* s = value.c_str();
  write_scalar_attribute(group_.get(), name, type.get(), type.get(), &s);
}

void RunWriter::set_int(const std::string& name, std::int64_t value) {
  write_scalar_attribute(group_.get(), name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value);
}

void RunWriter::set_real(const std::string& name, double value) {
  write_scalar_attribute(group_.get(), name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

void RunWriter::on_step(const StepRecord& r) {
  const hsize_t row = static_cast<hsize_t>(rows_);
  std::size_t i = 0;
  auto put = [&](const void* data) {
    const Series& s = *series_[i++];
    append_row(s.dataset.get(), s.mem_type, s.cols, row, data);
  };
  put(&r.wall);
  put(&r.compute_wall);
  put(&r.makespan);
  put(&r.ideal);
  put(&r.serial);
  put(&r.balance);
  put(&r.balance_wall);
  put(&r.migrations);
  put(&r.bytes_moved);
  put(&r.predicted_before);
  put(&r.predicted_after);
  put(r.busy.data());
  put(r.busy_wall.data());
  put(r.idle.data());
  put(r.proc_balance.data());
  put(r.proc_migration.data());
  // Records from before load emulation carry no external_load: archive zeros.
  const std::vector<double> no_load(r.external_load.empty() ? layout_.processors : 0, 0.0);
  put(r.external_load.empty() ? no_load.data() : r.external_load.data());
  // Executors without in-step synchronisation leave triggered empty.
  const std::vector<int> none(r.triggered.empty() ? layout_.processors : 0, 0);
  put(r.triggered.empty() ? none.data() : r.triggered.data());
  if (layout_.record_modules) {
    put(r.module_cost.data());
    put(r.module_owner.data());
  }
  for (std::size_t k = 0; k < layout_.metrics.size(); ++k) put(&r.metrics.at(k));
  ++rows_;
  flush();
}

void RunWriter::flush() {
  h5::check(H5Fflush(file_, H5F_SCOPE_LOCAL), "flush archive");
}

ArchiveWriter::ArchiveWriter(const std::string& path) : path_(path) {
  h5::silence_library_errors();
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(path, ec)) {
    if (!fs::is_regular_file(path, ec)) throw ArchiveError(path + ": not a regular file");
    if (H5Fis_hdf5(path.c_str()) <= 0)
      throw ArchiveError(path + ": not an HDF5 file (refusing to touch it)");
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0)
      throw ArchiveError(path +
                         ": cannot open the HDF5 file for writing (corrupt, locked by "
                         "another writer, or read-only)");
    file_ = h5::Handle(f, H5Fclose);
    if (H5Lexists(f, "/runs", H5P_DEFAULT) <= 0)
      throw ArchiveError(path +
                         ": an HDF5 file without /runs is not an lbbench archive "
                         "(refusing to touch it)");
  } else {
    if (auto parent = fs::path(path).parent_path(); !parent.empty())
      fs::create_directories(parent, ec);
    hid_t f = H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0) throw ArchiveError(path + ": cannot create the archive");
    file_ = h5::Handle(f, H5Fclose);
    h5::group(H5Gcreate2(f, "/runs", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "create /runs");
  }
}

std::unique_ptr<RunWriter> ArchiveWriter::begin_run(const RunLayout& layout) {
  auto runs = h5::group(H5Gopen2(file_.get(), "/runs", H5P_DEFAULT), "open /runs");
  H5G_info_t info;
  h5::check(H5Gget_info(runs.get(), &info), "count runs");
  std::string safe;
  for (char c : layout.label)
    safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '=' ||
             c == '+' || c == ',')
                ? c
                : '_';
  for (hsize_t n = info.nlinks;; ++n) {
    char prefix[32];
    std::snprintf(prefix, sizeof prefix, "run-%05llu", static_cast<unsigned long long>(n));
    std::string id = std::string(prefix) + (safe.empty() ? "" : "-" + safe);
    if (H5Lexists(runs.get(), id.c_str(), H5P_DEFAULT) <= 0)
      return std::make_unique<RunWriter>(file_.get(), id, layout);
  }
}

}  // namespace lbb
