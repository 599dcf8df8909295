#pragma once
// RAII for HDF5 C API identifiers (the C++ API is not thread-safe, DESIGN.md).
#include <hdf5.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace lbb::h5 {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using Closer = herr_t (*)(hid_t);

class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, Closer close) : id_(id), close_(close) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)), close_(o.close_) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, H5I_INVALID_HID);
      close_ = o.close_;
    }
    return *this;
  }
  ~Handle() { reset(); }
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  hid_t release() { return std::exchange(id_, H5I_INVALID_HID); }  // the caller closes it
  void reset() {
    if (id_ >= 0 && close_) close_(id_);
    id_ = H5I_INVALID_HID;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer close_ = nullptr;
};

// Throws Error(what) when id is negative, else wraps it.
inline Handle check(hid_t id, Closer close, const std::string& what) {
  if (id < 0) throw Error(what);
  return Handle(id, close);
}
inline void check(herr_t status, const std::string& what) {
  if (status < 0) throw Error(what);
}

inline Handle file(hid_t id, const std::string& what) {
  return check(id, H5Fclose, what);
}
inline Handle group(hid_t id, const std::string& what) {
  return check(id, H5Gclose, what);
}
inline Handle dataset(hid_t id, const std::string& what) {
  return check(id, H5Dclose, what);
}
inline Handle dataspace(hid_t id, const std::string& what) {
  return check(id, H5Sclose, what);
}
inline Handle datatype(hid_t id, const std::string& what) {
  return check(id, H5Tclose, what);
}
inline Handle plist(hid_t id, const std::string& what) {
  return check(id, H5Pclose, what);
}
inline Handle attribute(hid_t id, const std::string& what) {
  return check(id, H5Aclose, what);
}

// Library errors are reported by lbbench itself, not printed by HDF5.
inline void silence_library_errors() {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

}  // namespace lbb::h5
