#include "harness/archive/deflated_chunks.h"

#include <libdeflate.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "harness/archive/h5_records.h"

namespace lbb::h5 {

namespace {

struct FreeCompressor {
  void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
};

libdeflate_compressor* compressor() {
  thread_local std::unique_ptr<libdeflate_compressor, FreeCompressor> c(
      libdeflate_alloc_compressor(kDeflateLevel));
  if (!c) throw Error("cannot allocate a deflate compressor");
  return c.get();
}

// HDF5's shuffle filter: byte j of every element, then byte j + 1, over the whole chunk.
void shuffle(const unsigned char* in, std::size_t elements, std::size_t size, unsigned char* out) {
  for (std::size_t j = 0; j < size; ++j)
    for (std::size_t i = 0; i < elements; ++i) out[j * elements + i] = in[i * size + j];
}

bool all_zero(const unsigned char* p, std::size_t n) {
  return n == 0 || (p[0] == 0 && std::memcmp(p, p + 1, n - 1) == 0);
}

// The last chunk this thread deflated, as given and as deflated: a simulated run's busy_wall is
// its busy, whose chunk is then compressed once for both datasets.
struct LastChunk {
  std::vector<unsigned char> raw, packed;
  std::size_t element_size = 0;
  bool same(const std::vector<unsigned char>& chunk, std::size_t size) const {
    return element_size == size && raw.size() == chunk.size() &&
           std::memcmp(raw.data(), chunk.data(), chunk.size()) == 0;
  }
};

}  // namespace

bool write_deflated_chunks(hid_t d, RecordType type, hsize_t rows, hsize_t width,
                           hsize_t chunk_rows, const void* data) {
  auto ftype = file_type(type);
  if (H5Tequal(ftype.get(), memory_type(type)) <= 0) return false;
  const std::size_t size = record_type_bytes(type);
  const std::size_t chunk_bytes = chunk_rows * width * size;
  std::vector<unsigned char> chunk(chunk_bytes), shuffled(chunk_bytes);
  std::vector<unsigned char> packed(libdeflate_zlib_compress_bound(nullptr, chunk_bytes));
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (hsize_t first = 0; first < rows; first += chunk_rows) {
    // The last chunk is stored whole: the rows past the dataset's end are zeros.
    const std::size_t used = std::min(rows - first, chunk_rows) * width * size;
    std::memcpy(chunk.data(), bytes + first * width * size, used);
    std::fill(chunk.begin() + used, chunk.end(), 0);
    // A chunk never written reads as the fill value, 0: an all-zero chunk is not stored.
    if (all_zero(chunk.data(), chunk_bytes)) continue;
    thread_local LastChunk last;
    if (!last.same(chunk, size)) {
      shuffle(chunk.data(), chunk_bytes / size, size, shuffled.data());
      const std::size_t n = libdeflate_zlib_compress(compressor(), shuffled.data(), chunk_bytes,
                                                     packed.data(), packed.size());
      if (n == 0) throw Error("cannot deflate a chunk");
      last.element_size = 0;  // until both halves are set
      last.packed.assign(packed.begin(), packed.begin() + static_cast<std::ptrdiff_t>(n));
      last.raw.swap(chunk);
      last.element_size = size;
      chunk.resize(chunk_bytes);
    }
    const hsize_t offset[2] = {first, 0};  // a one-dimensional dataset reads the first
    check(H5Dwrite_chunk(d, H5P_DEFAULT, 0, offset, last.packed.size(), last.packed.data()),
          "write a chunk");
  }
  return true;
}

}  // namespace lbb::h5
