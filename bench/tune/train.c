/* train.c - the training run of a real program's kernel (bench/tune/run.py,
 * part "real"): with the project's file compiled with
 * -fprofile-instr-generate (clang) or -fprofile-generate (GCC), runs KERNEL
 * (a kernel of real_kernels.c, named by -DKERNEL=name) once per size given
 * on the command line, on the buffers real_kernels.c's KERNEL_init fills,
 * so that the profile loopperf-tune and the measured copies are compiled
 * with (-fprofile-instr-use, -fprofile-use) is written. run.py trains on
 * sizes other than the ones it measures.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef KERNEL
#error "compile with -DKERNEL=name"
#endif
#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)

typedef void KernelFn(long, void *, void *, void *, void *);
KernelFn KERNEL, XCAT(KERNEL, _init);

enum { Size = 64 * 1024 };

int main(int argc, char **argv) {
  unsigned char *buf = aligned_alloc(64, 4 * Size);
  if (!buf)
    return 2;
  for (int i = 1; i < argc; ++i) {
    const long n = atol(argv[i]);
    if (n <= 0 || n > Size) {
      fprintf(stderr, "train: bad size %s\n", argv[i]);
      return 2;
    }
    XCAT(KERNEL, _init)(n, buf, buf + Size, buf + 2 * Size, buf + 3 * Size);
    KERNEL(n, buf, buf + Size, buf + 2 * Size, buf + 3 * Size);
  }
  free(buf);
  return 0;
}
