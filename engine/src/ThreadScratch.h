// ThreadScratch.h - a thread_local buffer reached through one address
// lookup per use.
#pragma once

namespace loopperf::detail {

/// `Tls`, a thread_local, through a pointer the compiler cannot trace back
/// to it, so a function looks the thread_local up once and then uses a
/// register. In a plugin (a dlopen'ed shared object) each lookup is a
/// __tls_get_addr call, and GCC looked up again after every call inside the
/// function and inside the callees it specialised for the thread_local's
/// address (ipa-cp clones of sccInto, EdgeBatch::flush): 17,173 calls per
/// clang compile of unit029.c, 0.19 M instructions (issue 20). The
/// initial-exec TLS model would need no calls, but then glibc must place the
/// plugin's whole TLS block (2 KB) in the static TLS surplus when it loads
/// the plugin, and clang-19 and cc1 had room for less than 1.8 KB
/// (bench/results/compile-time-llvm.md).
template <typename T> T &threadScratch(T &Tls) {
  T *P = &Tls;
  asm("" : "+r"(P));
  return *P;
}

} // namespace loopperf::detail
