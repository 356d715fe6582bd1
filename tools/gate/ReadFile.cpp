// ReadFile.cpp - whole files, gzip'd or not (GCC's records are .json.gz).
#include "Readers.h"

#include <fmt/format.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace loopperf::gate {
namespace {

std::string tooLarge(size_t maxBytes, const char *what) {
  return fmt::format(
      "{} more than {} bytes (loopperf-gate's limit per file, {} MiB; "
      "see docs/ci.md)",
      what, maxBytes, maxBytes >> 20);
}

std::string gunzip(const std::string &data, const std::string &path,
                   size_t maxBytes) {
  z_stream zs{};
  // 16 + MAX_WBITS: gzip header and trailer (CRC and length are checked).
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
    throw InputError(path, "cannot initialise zlib");
  zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char buf[1 << 16];
  int rc = Z_OK;
  while (rc == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef *>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    const size_t got = sizeof buf - zs.avail_out;
    if (got > maxBytes - out.size()) {
      inflateEnd(&zs);
      throw InputError(path, tooLarge(maxBytes, "gzip data decompresses to"));
    }
    out.append(buf, got);
    if (rc == Z_BUF_ERROR && zs.avail_in == 0)
      break; // input ended before the stream did
  }
  std::string msg = zs.msg ? zs.msg : "";
  inflateEnd(&zs);
  if (rc != Z_STREAM_END)
    throw InputError(path, rc == Z_BUF_ERROR || rc == Z_OK
                               ? "truncated gzip data"
                               : "corrupt gzip data" +
                                     (msg.empty() ? "" : ": " + msg));
  return out;
}

} // namespace

std::string readFileBytes(const std::string &path, size_t maxBytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path, std::string("cannot open: ") + std::strerror(errno));
  // Read in blocks up to the limit (a pipe or /dev/zero has no size).
  std::string data;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    const size_t got = static_cast<size_t>(in.gcount());
    if (got > maxBytes - data.size())
      throw InputError(path, tooLarge(maxBytes, "the file has"));
    data.append(buf, got);
  }
  if (in.bad())
    throw InputError(path, "read error");
  return decodeBytes(std::move(data), path, maxBytes);
}

std::string decodeBytes(std::string data, const std::string &origin,
                        size_t maxBytes) {
  if (data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
      static_cast<unsigned char>(data[1]) == 0x8b)
    return gunzip(data, origin, maxBytes);
  if (data.size() > maxBytes)
    throw InputError(origin, tooLarge(maxBytes, "the file has"));
  return data;
}

} // namespace loopperf::gate
