/* check_branchy.c - checks the outputs of bench/suite/branchy.c's kernels
 * and that validate.py's first_arm_share() counts the selectors as the C
 * code fills them: prints per kernel the share of first-arm elements among
 * elements N1..N2-1 and "ok" when a[0..j) holds the first arm's value (2.0,
 * or 1/3 for brdiv_), c[0..k) 2.0, j + k = N2.
 *   gcc-12 -O2 -fno-ipa-icf -I bench/suite bench/validation/check_branchy.c \
 *       bench/suite/branchy.c -o /tmp/check_branchy && N1=128 N2=768
 * /tmp/check_branchy Compare with: cd bench/validation && python3 -c 'import
 * validate as v; print({k: v.first_arm_share(k, 128, 768) for k in
 * v.branchy_patterns()})' */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#define K(n)                                                                   \
  void n(long, void *, void *, void *, void *);                                \
  void n##_init(long, void *, void *, void *, void *);
K(br_always)
K(br_never) K(br_alternate) K(br_random50) K(br_random90) K(brdiv_always)
    K(brdiv_never) K(brdiv_alternate) K(brdiv_random50)
        K(brdiv_random90) typedef void (*F)(long, void *, void *, void *,
                                            void *);
int main(void) {
  struct {
    const char *name;
    F init, run;
    double first;
  } ks[] = {
#define E(n, f) {#n, n##_init, n, f},
      E(br_always, 2.0) E(br_never, 2.0) E(br_alternate, 2.0)
          E(br_random50, 2.0) E(br_random90, 2.0) E(brdiv_always, 1.0 / 3)
              E(brdiv_never, 1.0 / 3) E(brdiv_alternate, 1.0 / 3)
                  E(brdiv_random50, 1.0 / 3) E(brdiv_random90, 1.0 / 3)};
  long n1 = atol(getenv("N1")), n2 = atol(getenv("N2"));
  for (unsigned t = 0; t < 10; ++t) {
    double *a = calloc(8192, 8), *c = calloc(8192, 8), *v = calloc(8192, 8);
    int32_t *sel = calloc(8192, 4);
    for (int i = 0; i < 8192; ++i)
      v[i] = 1.0;
    ks[t].init(n2, a, sel, v, c);
    long j = 0;
    for (long i = n1; i < n2; ++i)
      j += sel[i] != 0;
    long jall = 0;
    for (long i = 0; i < n2; ++i)
      jall += sel[i] != 0;
    ks[t].run(n2, a, sel, v, c);
    int ok = 1;
    for (long i = 0; i < jall; ++i)
      ok &= a[i] == ks[t].first;
    for (long i = 0; i < n2 - jall; ++i)
      ok &= c[i] == 2.0;
    ok &= a[jall] == 0.0 && c[n2 - jall] == 0.0;
    printf("%s %.6f %s\n", ks[t].name, (double)j / (n2 - n1),
           ok ? "ok" : "BAD");
  }
}
