/* real_kernels.c - loopperf-measure kernels around real programs' functions
 * (bench/tune/run.py, part "real").
 *
 * Each kernel has the suite's signature, void K(long n, void *a, void *b,
 * void *c, void *d) (bench/suite/suite.h): it runs the project's function
 * on the n bytes at a and stores the result at b, so bench/tune/check.c
 * compares the results of the compiler's own code and of the tuned or
 * reordered code byte for byte. K_init fills a with the same pseudo-random
 * bytes for every copy (xorshift64, fixed seed), so measurements and checks
 * see real data rather than the suite's doubles of 1.0. (zlib's adler32_z
 * and crc32_z and xz's lzma_crc32/64 were tried: the tuner plans none of
 * their loops; bench/tune/notes.md.)
 *
 * run.py compiles this file with exactly one -DKERNEL_xxx, links the object
 * with the project's object (ld -r) and renames the merged object's global
 * symbols for the changed copy (tuned_K calls tuned_FUNCTION), so one
 * library holds both copies and nothing in the project's source changes.
 */
#include <stddef.h>
#include <stdint.h>

#if defined(KERNEL_bzip2_blocksort)
/* bzip2 1.0.8 blocksort.c: BZ2_blockSort(EState *), the Burrows-Wheeler
 * sort of one block, set up as bzlib.c's BZ2_bzCompressInit does (ptr and
 * arr1 one array, block the bytes of arr2). n < 10000 bytes, so it runs
 * fallbackSort (the path of small blocks and of repetitive ones). The
 * input is 16 letters, so the sort refines a few times. The result stored
 * at b: origPtr and a weighted sum of the sorted order ptr[0..n). */
#include "bzlib_private.h"
enum { MaxBlock = 46 * 1024 };
static UInt32 Arr1[MaxBlock], Arr2[MaxBlock + BZ_N_OVERSHOOT], Ftab[65537];
void BZ2_bz__AssertH__fail(int errcode) {
  (void)errcode;
  __builtin_trap();
}
void bzip2_blocksort_init(long n, void *a, void *b, void *c, void *d) {
  (void)b, (void)c, (void)d;
  uint64_t s = 0x9E3779B97F4A7C15u;
  unsigned char *p = a;
  for (long i = 0; i < n; ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    p[i] = (unsigned char)('a' + (s >> 24) % 16);
  }
}
void bzip2_blocksort(long n, void *a, void *b, void *c, void *d) {
  (void)c, (void)d;
  if (n > MaxBlock)
    __builtin_trap();
  EState s = {0};
  s.arr1 = Arr1;
  s.arr2 = Arr2;
  s.ftab = Ftab;
  s.ptr = Arr1;
  s.block = (UChar *)Arr2;
  s.nblock = (Int32)n;
  s.workFactor = 30;
  __builtin_memcpy(s.block, a, (size_t)n);
  BZ2_blockSort(&s);
  uint64_t h = 0;
  for (long i = 0; i < n; ++i)
    h += (uint64_t)Arr1[i] * (uint64_t)(2 * i + 1);
  ((uint64_t *)b)[0] = (uint64_t)s.origPtr;
  ((uint64_t *)b)[1] = h;
}
#else
#error "compile with one -DKERNEL_xxx"
#endif
