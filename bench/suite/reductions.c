/* Reductions with 1, 2, 4 and 8 explicit accumulators. Without -ffast-math
 * the floating-point ones keep the written association: one accumulator is
 * a chain of dependent adds. */
#include "suite.h"

#define RED(name, T, ACC)                                                   \
  KERNEL(name) {                                                            \
    const T *restrict x = pb;                                               \
    T s[ACC];                                                               \
    for (int k = 0; k < ACC; ++k) s[k] = 0;                                 \
    for (long i = 0; i < n; i += ACC)                                       \
      for (int k = 0; k < ACC; ++k) s[k] += x[i + k];                       \
    T t = 0;                                                                \
    for (int k = 0; k < ACC; ++k) t += s[k];                                \
    *(T *)pd = t;                                                           \
  }

RED(sum_f64_1acc, double, 1)
RED(sum_f64_2acc, double, 2)
RED(sum_f64_4acc, double, 4)
RED(sum_f64_8acc, double, 8)
RED(sum_f32_1acc, float, 1)
RED(sum_f32_8acc, float, 8)
RED(sum_i32_1acc, int32_t, 1)
RED(sum_i32_2acc, int32_t, 2)
RED(sum_i32_4acc, int32_t, 4)
RED(sum_i32_8acc, int32_t, 8)
RED(sum_i64_1acc, int64_t, 1)

KERNEL(dot_f64) {
  const double *restrict x = pb, *restrict y = pc;
  double s = 0;
  for (long i = 0; i < n; ++i) s += x[i] * y[i];
  *(double *)pd = s;
}
