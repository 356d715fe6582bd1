// Fingerprint.cpp - see Fingerprint.h.
#include "loopperf/Fingerprint.h"

#include <fmt/format.h>

namespace loopperf {

uint64_t fnv1a64(std::string_view Bytes) {
  uint64_t H = 0xcbf29ce484222325ull;
  for (unsigned char C : Bytes) {
    H ^= C;
    H *= 0x100000001b3ull;
  }
  return H;
}

std::string fingerprintInput(const LoopKernel &K) {
  std::string S;
  for (const Instruction &In : K.Insts) {
    S += !In.FormKey.empty()    ? In.FormKey
         : !In.Mnemonic.empty() ? In.Mnemonic
                                : In.Text;
    S += '\n';
  }
  return S;
}

std::string loopFingerprint(const LoopKernel &K) {
  return fmt::format("{:016x}", fnv1a64(fingerprintInput(K)));
}

} // namespace loopperf
