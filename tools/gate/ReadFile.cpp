// ReadFile.cpp - whole files, gzip'd or not (GCC's records are .json.gz).
#include "Readers.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace loopperf::gate {
namespace {

std::string gunzip(const std::string &data, const std::string &path) {
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
    out.append(buf, sizeof buf - zs.avail_out);
    if (rc == Z_BUF_ERROR && zs.avail_in == 0)
      break; // input ended before the stream did
  }
  std::string msg = zs.msg ? zs.msg : "";
  inflateEnd(&zs);
  if (rc != Z_STREAM_END)
    throw InputError(path, rc == Z_BUF_ERROR || rc == Z_OK
                               ? "truncated gzip data"
                               : "corrupt gzip data" + (msg.empty() ? "" : ": " + msg));
  return out;
}

} // namespace

std::string readFileBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path, std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad())
    throw InputError(path, "read error");
  std::string data = std::move(ss).str();
  if (data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
      static_cast<unsigned char>(data[1]) == 0x8b)
    return gunzip(data, path);
  return data;
}

} // namespace loopperf::gate
