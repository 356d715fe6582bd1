// Fingerprint.cpp - see Fingerprint.h.
#include "loopperf/Fingerprint.h"

namespace loopperf {

namespace {

constexpr uint64_t FnvOffsetBasis = 0xcbf29ce484222325ull;

/// FNV-1a continued over `bytes` from the hash `h` (so hashing the pieces
/// of a string one after another gives the hash of the whole).
uint64_t fnv1a64From(uint64_t H, std::string_view Bytes) {
  constexpr uint64_t Prime = 0x100000001b3ull;
  const auto *B = reinterpret_cast<const unsigned char *>(Bytes.data());
  size_t I = 0;
  // Four bytes per round (the same sequence of xors and multiplies, less
  // loop overhead: issue 20).
  for (; I + 4 <= Bytes.size(); I += 4) {
    H = (H ^ B[I]) * Prime;
    H = (H ^ B[I + 1]) * Prime;
    H = (H ^ B[I + 2]) * Prime;
    H = (H ^ B[I + 3]) * Prime;
  }
  for (; I < Bytes.size(); ++I)
    H = (H ^ B[I]) * Prime;
  return H;
}

/// What stands for `in` in the fingerprint input (see Fingerprint.h).
const std::string &formOf(const Instruction &In) {
  return !In.FormKey.empty()    ? In.FormKey
         : !In.Mnemonic.empty() ? In.Mnemonic
                                : In.Text;
}

} // namespace

uint64_t fnv1a64(std::string_view Bytes) {
  return fnv1a64From(FnvOffsetBasis, Bytes);
}

std::string fingerprintInput(const LoopKernel &K) {
  std::string S;
  for (const Instruction &In : K.Insts) {
    S += formOf(In);
    S += '\n';
  }
  return S;
}

std::string loopFingerprint(const LoopKernel &K) {
  return loopFingerprint(InstructionView(K.Insts));
}

std::string loopFingerprint(InstructionView Insts) {
  // fnv1a64(fingerprintInput(k)), hashed piece by piece: the input string
  // is never built.
  uint64_t H = FnvOffsetBasis;
  for (const Instruction &In : Insts)
    H = fnv1a64From(fnv1a64From(H, formOf(In)), "\n");
  // fmt::format("{:016x}", h), written directly (issue 20).
  std::string Hex(16, '0');
  for (int I = 15; I >= 0; --I, H >>= 4)
    Hex[static_cast<size_t>(I)] = "0123456789abcdef"[H & 15];
  return Hex;
}

} // namespace loopperf
