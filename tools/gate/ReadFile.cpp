// ReadFile.cpp - whole files, gzip'd or not (GCC's records are .json.gz).
#include "Readers.h"

#include <fmt/format.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace loopperf::gate {
namespace {

std::string tooLarge(size_t MaxBytes, const char *What) {
  return fmt::format(
      "{} more than {} bytes (loopperf-gate's limit per file, {} MiB; "
      "see docs/ci.md)",
      What, MaxBytes, MaxBytes >> 20);
}

std::string gunzip(const std::string &Data, const std::string &Path,
                   size_t MaxBytes) {
  z_stream Zs{};
  // 16 + MAX_WBITS: gzip header and trailer (CRC and length are checked).
  if (inflateInit2(&Zs, 16 + MAX_WBITS) != Z_OK)
    throw InputError(Path, "cannot initialise zlib");
  Zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(Data.data()));
  Zs.avail_in = static_cast<uInt>(Data.size());
  std::string Out;
  char Buf[1 << 16];
  int Rc = Z_OK;
  while (Rc == Z_OK) {
    Zs.next_out = reinterpret_cast<Bytef *>(Buf);
    Zs.avail_out = sizeof Buf;
    Rc = inflate(&Zs, Z_NO_FLUSH);
    const size_t Got = sizeof Buf - Zs.avail_out;
    if (Got > MaxBytes - Out.size()) {
      inflateEnd(&Zs);
      throw InputError(Path, tooLarge(MaxBytes, "gzip data decompresses to"));
    }
    Out.append(Buf, Got);
    if (Rc == Z_BUF_ERROR && Zs.avail_in == 0)
      break; // input ended before the stream did
  }
  std::string Msg = Zs.msg ? Zs.msg : "";
  inflateEnd(&Zs);
  if (Rc != Z_STREAM_END)
    throw InputError(Path, Rc == Z_BUF_ERROR || Rc == Z_OK
                               ? "truncated gzip data"
                               : "corrupt gzip data" +
                                     (Msg.empty() ? "" : ": " + Msg));
  return Out;
}

} // namespace

std::string readFileBytes(const std::string &Path, size_t MaxBytes) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    throw InputError(Path, std::string("cannot open: ") + std::strerror(errno));
  // Read in blocks up to the limit (a pipe or /dev/zero has no size).
  std::string Data;
  char Buf[1 << 16];
  while (In.read(Buf, sizeof Buf) || In.gcount() > 0) {
    const size_t Got = static_cast<size_t>(In.gcount());
    if (Got > MaxBytes - Data.size())
      throw InputError(Path, tooLarge(MaxBytes, "the file has"));
    Data.append(Buf, Got);
  }
  if (In.bad())
    throw InputError(Path, "read error");
  return decodeBytes(std::move(Data), Path, MaxBytes);
}

std::string decodeBytes(std::string Data, const std::string &Origin,
                        size_t MaxBytes) {
  if (Data.size() >= 2 && static_cast<unsigned char>(Data[0]) == 0x1f &&
      static_cast<unsigned char>(Data[1]) == 0x8b)
    return gunzip(Data, Origin, MaxBytes);
  if (Data.size() > MaxBytes)
    throw InputError(Origin, tooLarge(MaxBytes, "the file has"));
  return Data;
}

} // namespace loopperf::gate
