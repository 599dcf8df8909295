#include <filesystem>

#include "harness/archive/archive.h"

namespace lbb {

namespace {

herr_t collect_name(hid_t, const char* name, const H5L_info_t*, void* out) {
  static_cast<std::vector<std::string>*>(out)->push_back(name);
  return 0;
}

herr_t collect_attribute(hid_t obj, const char* name, const H5A_info_t*, void* out) {
  auto* info = static_cast<RunInfo*>(out);
  auto attr = h5::attribute(H5Aopen(obj, name, H5P_DEFAULT), std::string("open attribute ") + name);
  auto type = h5::datatype(H5Aget_type(attr.get()), "attribute type");
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls == H5T_STRING) {
    if (H5Tis_variable_str(type.get()) > 0) {
      // Read with the file's own string type: HDF5 does not convert UTF-8 to ASCII.
      char* s = nullptr;
      if (H5Aread(attr.get(), type.get(), &s) < 0) return -1;
      info->text[name] = s ? s : "";
      auto space = h5::dataspace(H5Aget_space(attr.get()), "space");
      H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, &s);
    } else {
      std::string s(H5Tget_size(type.get()), '\0');
      if (H5Aread(attr.get(), type.get(), s.data()) < 0) return -1;
      info->text[name] = s.c_str();
    }
  } else if (cls == H5T_INTEGER || cls == H5T_FLOAT) {
    double v = 0;
    if (H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &v) < 0) return -1;
    info->number[name] = v;
  }
  return 0;
}

}  // namespace

ArchiveReader::ArchiveReader(const std::string& path) : path_(path) {
  h5::silence_library_errors();
  if (!std::filesystem::exists(path)) throw ArchiveError(path + ": no such archive");
  if (H5Fis_hdf5(path.c_str()) <= 0) throw ArchiveError(path + ": not an HDF5 file");
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) throw ArchiveError(path + ": cannot open (corrupt or locked)");
  file_ = h5::Handle(f, H5Fclose);
  if (H5Lexists(f, "/runs", H5P_DEFAULT) <= 0)
    throw ArchiveError(path + ": not an lbbench archive (no /runs group)");
}

std::vector<RunInfo> ArchiveReader::runs() const {
  auto runs = h5::group(H5Gopen2(file_.get(), "/runs", H5P_DEFAULT), path_ + ": open /runs");
  std::vector<std::string> names;
  if (H5Literate(runs.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_name, &names) < 0)
    throw ArchiveError(path_ + ": cannot list runs");
  std::vector<RunInfo> out;
  for (const auto& n : names) {
    RunInfo info;
    info.id = n;
    auto g = h5::group(H5Gopen2(runs.get(), n.c_str(), H5P_DEFAULT), path_ + ": open run " + n);
    if (H5Aiterate2(g.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_attribute, &info) < 0)
      throw ArchiveError(path_ + ": cannot read the attributes of run " + n);
    out.push_back(std::move(info));
  }
  return out;
}

std::vector<double> ArchiveReader::read_matrix(const std::string& run, const std::string& dataset,
                                               std::size_t& rows, std::size_t& cols) const {
  const std::string path = "/runs/" + run + "/" + dataset;
  auto d =
      h5::dataset(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), path_ + ": no dataset " + path);
  auto space = h5::dataspace(H5Dget_space(d.get()), "space");
  hsize_t dims[2] = {0, 1};
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 1 || rank > 2) throw ArchiveError(path + ": unexpected rank");
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  rows = dims[0];
  cols = rank == 2 ? dims[1] : 1;
  std::vector<double> out(rows * cols);
  if (!out.empty())
    h5::check(H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()),
              path_ + ": read " + path);
  return out;
}

std::vector<double> ArchiveReader::read_series(const std::string& run,
                                               const std::string& dataset) const {
  std::size_t rows = 0, cols = 0;
  return read_matrix(run, dataset, rows, cols);
}

}  // namespace lbb
