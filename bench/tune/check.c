/* check.c - are a kernel and its tuned copy's outputs bit-identical?
 *
 *   check LIB.so KERNEL N
 *
 * LIB.so holds KERNEL and tuned_KERNEL (bench/tune/run.py links both
 * objects into one library). Each gets its own four buffers, laid out as
 * bench/suite/suite.h says (46 KiB usable after the pointer, 16 KiB
 * before), filled alike (KERNEL_init when the library has one, else the
 * double 1.0 everywhere), and runs with n = N; then all of both buffer
 * sets, before and after the pointers, are compared byte for byte.
 * Prints "identical" or the first differing buffer and offset; exit 0
 * when identical, 1 when not, 2 on a usage error. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Before = 16 * 1024, After = 46 * 1024, Size = Before + After };
typedef void KernelFn(long, void *, void *, void *, void *);

static void fill(unsigned char *set, KernelFn *init, long n) {
  for (int b = 0; b < 4; ++b) {
    double *d = (double *)(set + b * Size);
    for (size_t i = 0; i < Size / sizeof(double); ++i)
      d[i] = 1.0;
  }
  if (init)
    init(n, set + Before, set + Size + Before, set + 2 * Size + Before,
         set + 3 * Size + Before);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: check LIB.so KERNEL N\n");
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "check: %s\n", dlerror());
    return 2;
  }
  char name[256];
  snprintf(name, sizeof name, "tuned_%s", argv[2]);
  KernelFn *k = (KernelFn *)dlsym(lib, argv[2]);
  KernelFn *t = (KernelFn *)dlsym(lib, name);
  snprintf(name, sizeof name, "%s_init", argv[2]);
  KernelFn *init = (KernelFn *)dlsym(lib, name);
  const long n = atol(argv[3]);
  if (!k || !t || n <= 0) {
    fprintf(stderr, "check: %s or tuned_%s missing, or bad n\n", argv[2],
            argv[2]);
    return 2;
  }
  unsigned char *a = aligned_alloc(64, 4 * Size);
  unsigned char *b = aligned_alloc(64, 4 * Size);
  fill(a, init, n);
  fill(b, init, n);
  k(n, a + Before, a + Size + Before, a + 2 * Size + Before,
    a + 3 * Size + Before);
  t(n, b + Before, b + Size + Before, b + 2 * Size + Before,
    b + 3 * Size + Before);
  for (size_t i = 0; i < 4 * Size; ++i)
    if (a[i] != b[i]) {
      printf("differs: buffer %c, byte %ld from its pointer\n",
             (int)('a' + i / Size), (long)(i % Size) - Before);
      return 1;
    }
  printf("identical\n");
  return 0;
}
