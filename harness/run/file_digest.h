#pragma once
// SHA-256 of a file's bytes (OpenSSL's libcrypto), for provenance: which plugin library a run
// loaded, exactly.
#include <string>

namespace lbb {

// 64 lowercase hex digits; throws std::runtime_error naming the file when it cannot be read.
std::string file_sha256(const std::string& path);

}  // namespace lbb
