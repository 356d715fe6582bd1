// Names that are not UTF-8 (here a file name with byte 0xFF, through #line;
// in real builds a Latin-1 path) used to abort clang when the JSON record was
// requested: nlohmann::json throws on invalid UTF-8 (type_error 316) and the
// plugin did not catch it. The byte now becomes U+FFFD in the record; remarks
// are unaffected and the compile succeeds.
// RUN: env LOOPPERF_OPTIONS="json=%t.json" %clang -g -O2 -march=znver5 -fpass-plugin=%plugin \
// RUN:   -Rpass=loopperf -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %FileCheck %s --check-prefix=JSON < %t.json

#line 1 "latin\377.c"
void axpy(float *a, const float *b, long n) {
  for (long i = 0; i < n; ++i)
    a[i] += 2.0f * b[i];
}
// REMARK: remark: loop runs
// JSON: "file": "{{.*}}non-utf8-name.c"
// JSON: "function": "axpy",
// JSON-NEXT: "file": "latin�.c",
