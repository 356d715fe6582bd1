/* Byte and string loops (b: n lower-case letters, no NUL). */
#include "suite.h"

static void fill_text(long n, uint8_t *s) {
  for (long i = 0; i < n; ++i) s[i] = (uint8_t)('a' + (i * 7) % 26);
}
INIT(count_char) { (void)pa; (void)pc; (void)pd; fill_text(n, pb); }
KERNEL(count_char) {
  const uint8_t *restrict s = pb;
  long c = 0;
  for (long i = 0; i < n; ++i) c += s[i] == 'e';
  *(long *)pd = c;
}
INIT(to_upper) { (void)pa; (void)pc; (void)pd; fill_text(n, pb); }
KERNEL(to_upper) {
  uint8_t *restrict d = pa; const uint8_t *restrict s = pb;
  for (long i = 0; i < n; ++i) d[i] = (s[i] >= 'a' && s[i] <= 'z') ? s[i] - 32 : s[i];
}
/* strlen-like: an early exit the compilers do not vectorize. */
INIT(strnlen_loop) { (void)pa; (void)pc; (void)pd; fill_text(n + 64, pb); }
KERNEL(strnlen_loop) {
  const uint8_t *s = pb;
  long i = 0;
  while (i < n && s[i]) ++i;
  *(long *)pd = i;
}
KERNEL(byte_sum_u8) {
  const uint8_t *restrict s = pb;
  uint32_t t = 0;
  for (long i = 0; i < n; ++i) t += s[i];
  *(uint32_t *)pd = t;
}
INIT(byte_sum_u8) { (void)pa; (void)pc; (void)pd; fill_text(n, pb); }
