/* Stencils on one innermost row (the outer loops do not matter for cycles
 * per element). Row and plane strides keep every point L1-resident. */
#include "suite.h"

#define S1 256   /* row stride (elements) */
#define S2 1024  /* plane stride (elements) */

KERNEL(jacobi2d5pt) {
  double *restrict b = pb; const double *restrict a = pa;
  for (long i = 0; i < n; ++i)
    b[i] = 0.25 * (a[i - 1] + a[i + 1] + a[i - S1] + a[i + S1]);
}
KERNEL(jacobi3d7pt) {
  double *restrict b = pb; const double *restrict a = pa;
  for (long i = 0; i < n; ++i)
    b[i] = 0.5 * a[i] + 0.125 * (a[i - 1] + a[i + 1] + a[i - S1] + a[i + S1] + a[i - S2] + a[i + S2]);
}
/* Gauss-Seidel: in place, a[i-1] was written in the previous iteration. */
KERNEL(gauss_seidel2d) {
  double *a = pa;
  for (long i = 0; i < n; ++i)
    a[i] = 0.25 * (a[i - 1] + a[i + 1] + a[i - S1] + a[i + S1]);
}
KERNEL(gauss_seidel1d) {
  double *a = pa;
  for (long i = 0; i < n; ++i)
    a[i] = 0.3333 * (a[i - 1] + a[i] + a[i + 1]);
}
