#include "harness/archive/deflated_chunks.h"

#include <libdeflate.h>

#include <algorithm>
#include <cstring>
#include <memory>

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

struct Layout {
  hsize_t rows, width, chunk_rows;
  std::size_t size;  // bytes of a value
  std::size_t chunk_bytes() const { return chunk_rows * width * size; }
};

// One chunk, shuffled first or not, deflated and appended to `out`.
void deflate_chunk(const Layout& l, const unsigned char* chunk, bool shuffled,
                   std::vector<unsigned char>& scratch, std::vector<unsigned char>& out) {
  const std::size_t bytes = l.chunk_bytes();
  if (shuffled) {
    scratch.resize(bytes);
    shuffle(chunk, bytes / l.size, l.size, scratch.data());
    chunk = scratch.data();
  }
  const std::size_t at = out.size(), bound = libdeflate_zlib_compress_bound(nullptr, bytes);
  out.resize(at + bound);
  const std::size_t n =
      libdeflate_zlib_compress(compressor(), chunk, bytes, out.data() + at, bound);
  if (n == 0) throw Error("cannot deflate a chunk");
  out.resize(at + n);
}

// Every chunk that is not all zeros, deflated into `out` (emptied first). The first one decides
// for all whether they are shuffled: deflated as it is, and also shuffled when that left more
// than 1/kShuffleTrialRatio of it, the smaller kept (one trial a dataset; seed002's datasets of
// up to 63 chunks compress as small as with a trial a chunk).
void deflate_all(const Layout& l, const unsigned char* data, DeflatedChunks& out) {
  out.shuffled = false;
  out.first_rows.clear();
  out.ends.clear();
  out.bytes.clear();
  const std::size_t chunk_bytes = l.chunk_bytes();
  std::vector<unsigned char> chunk(chunk_bytes), scratch, trial;
  for (hsize_t first = 0; first < l.rows; first += l.chunk_rows) {
    // The last chunk is stored whole: the rows past the dataset's end are zeros.
    const std::size_t used = std::min(l.rows - first, l.chunk_rows) * l.width * l.size;
    std::memcpy(chunk.data(), data + first * l.width * l.size, used);
    std::fill(chunk.begin() + static_cast<std::ptrdiff_t>(used), chunk.end(), 0);
    if (all_zero(chunk.data(), chunk_bytes)) continue;
    deflate_chunk(l, chunk.data(), out.shuffled, scratch, out.bytes);
    if (out.first_rows.empty() && out.bytes.size() * kShuffleTrialRatio > chunk_bytes) {
      deflate_chunk(l, chunk.data(), true, scratch, trial);
      if (trial.size() < out.bytes.size()) {
        out.bytes.swap(trial);
        out.shuffled = true;
      }
    }
    out.first_rows.push_back(first);
    out.ends.push_back(out.bytes.size());
  }
}

}  // namespace

const DeflatedChunks* deflate_chunks(RecordType type, hsize_t rows, hsize_t width,
                                     hsize_t chunk_rows, const void* data) {
  auto ftype = file_type(type);
  if (H5Tequal(ftype.get(), memory_type(type)) <= 0) return nullptr;
  const Layout l{rows, width, chunk_rows, record_type_bytes(type)};
  thread_local DeflatedChunks packed;  // its buffers kept from call to call
  deflate_all(l, static_cast<const unsigned char*>(data), packed);
  return &packed;
}

void write_deflated_chunks(hid_t d, const DeflatedChunks& chunks) {
  std::size_t begin = 0;
  for (std::size_t k = 0; k < chunks.first_rows.size(); ++k) {
    // A one-dimensional dataset reads the first.
    const hsize_t offset[2] = {chunks.first_rows[k], 0};
    check(H5Dwrite_chunk(d, H5P_DEFAULT, 0, offset, chunks.ends[k] - begin,
                         chunks.bytes.data() + begin),
          "write a chunk");
    begin = chunks.ends[k];
  }
}

}  // namespace lbb::h5
