/* Integer arithmetic and bit manipulation. */
#include "suite.h"

static void fill_u64(long n, uint64_t *x) {
  uint64_t s = 88172645463325252ull;
  for (long i = 0; i < n; ++i) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; x[i] = s; }
}
INIT(imul_add_i32) { (void)pa; (void)pd; fill_u64(n / 2 + 1, pb); fill_u64(n / 2 + 1, pc); }
KERNEL(imul_add_i32) {
  int32_t *restrict a = pa; const int32_t *restrict b = pb, *restrict c = pc;
  for (long i = 0; i < n; ++i) a[i] = b[i] * c[i] + 7;
}
INIT(shift_mix_u32) { (void)pa; (void)pd; fill_u64(n / 2 + 1, pb); fill_u64(n / 2 + 1, pc); }
KERNEL(shift_mix_u32) {
  uint32_t *restrict a = pa; const uint32_t *restrict b = pb, *restrict c = pc;
  for (long i = 0; i < n; ++i) a[i] = ((b[i] >> 3) ^ (c[i] << 5)) | 0x55u;
}
INIT(popcount_sum) { (void)pa; (void)pc; (void)pd; fill_u64(n, pb); }
KERNEL(popcount_sum) {
  const uint64_t *restrict x = pb;
  long s = 0;
  for (long i = 0; i < n; ++i) s += __builtin_popcountll(x[i]);
  *(long *)pd = s;
}
INIT(clz_sum) { (void)pa; (void)pc; (void)pd; fill_u64(n, pb); }
KERNEL(clz_sum) {
  const uint64_t *restrict x = pb;
  long s = 0;
  for (long i = 0; i < n; ++i) s += __builtin_clzll(x[i] | 1);
  *(long *)pd = s;
}
/* FNV-1a over 64-bit words: a multiply chain through h. */
INIT(fnv_hash) { (void)pa; (void)pc; (void)pd; fill_u64(n, pb); }
KERNEL(fnv_hash) {
  const uint64_t *restrict x = pb;
  uint64_t h = 1469598103934665603ull;
  for (long i = 0; i < n; ++i) h = (h ^ x[i]) * 1099511628211ull;
  *(uint64_t *)pd = h;
}
/* xorshift64 generator: a chain of shifts and xors through s. */
KERNEL(xorshift) {
  uint64_t *restrict a = pa;
  uint64_t s = 88172645463325252ull;
  for (long i = 0; i < n; ++i) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; a[i] = s; }
}
INIT(bitrev_mask) { (void)pa; (void)pd; (void)pc; fill_u64(n, pb); }
KERNEL(bitrev_mask) {
  uint64_t *restrict a = pa; const uint64_t *restrict b = pb;
  for (long i = 0; i < n; ++i) a[i] = (b[i] & (b[i] - 1)) ^ (b[i] >> 17) ^ (b[i] & -b[i]);
}
