// Fingerprint.cpp - see Fingerprint.h.
#include "loopperf/Fingerprint.h"

#include <fmt/format.h>

namespace loopperf {

uint64_t fnv1a64(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string fingerprintInput(const LoopKernel &k) {
  std::string s;
  for (const Instruction &in : k.insts) {
    s += !in.formKey.empty()    ? in.formKey
         : !in.mnemonic.empty() ? in.mnemonic
                                : in.text;
    s += '\n';
  }
  return s;
}

std::string loopFingerprint(const LoopKernel &k) {
  return fmt::format("{:016x}", fnv1a64(fingerprintInput(k)));
}

} // namespace loopperf
