// loopperf-tune with GCC and a profile, for a static function (docs/tune.md
// "The score"). GCC names a static function's profile after the object's
// path (its aux name): a -fprofile-use compile to another object finds
// none (-Wmissing-profile; here -Werror=missing-profile fails it). The
// tuner's scratch compiles keep the user's object's name as their aux name
// (-dumpbase), read its .gcda and get the static function's profile: the
// training run calls count_e 1000 times on 3 bytes. With that profile GCC
// peels those iterations (-fprofile-use turns on -fpeel-loops; with
// -fno-peel-loops added the loop is scored, checked by hand) and leaves a
// machine loop whose counts say 1.00 iteration per entry, and the tuner
// leaves it to the compiler (fewer than --min-iterations=4). Before -dumpbase every scratch compile
// failed here with "profile for function 'count_e' not found".
// REQUIRES: gcc-plugin
// RUN: rm -rf %t && mkdir %t
// RUN: %gcc -O2 -march=znver3 -fprofile-generate -c %s -o %t/s.o
// RUN: %gcc -fprofile-generate %t/s.o %S/Inputs/train_static.c -o %t/train
// RUN: cd %t && ./train && test -e %t/s.gcda
// RUN: %tune -o %t/s.plan -- %gcc -O2 -march=znver3 -fprofile-use \
// RUN:   -Werror=missing-profile -c %s -o %t/s.o | %FileCheck %s
// CHECK: loop | compiler's choice | best candidate | gain | plan
// CHECK-NEXT: tune-gcc-static.c:[[#@LINE+26]]:{{[0-9]+}} count_e (loop 1) | {{.*}} | none: runs 1.00 iterations per entry (profile): its time is not its steady state
// CHECK: 1 loops, 0 planned
//
// The same with a relative -o in the object's directory: GCC keys the static
// function's profile by the aux name as written ("r", not %t/r), so the
// scratch compiles' -dumpbase keeps it relative (an absolute one failed here).
// RUN: cd %t && %gcc -O2 -march=znver3 -fprofile-generate -c %s -o r.o
// RUN: cd %t && %gcc -fprofile-generate r.o %S/Inputs/train_static.c -o rtrain && ./rtrain
// RUN: cd %t && %tune -o r.plan -- %gcc -O2 -march=znver3 -fprofile-use \
// RUN:   -Werror=missing-profile -c %s -o r.o | %FileCheck %s --check-prefix=REL
// REL: count_e (loop 1) | {{.*}} | none: runs 1.00 iterations per entry (profile): its time is not its steady state
//
// The records GCC wrote under the object's name were read and removed;
// an existing one is not overwritten.
// RUN: not test -e %t/s.opt-record.json.gz
// RUN: touch %t/s.opt-record.json.gz
// RUN: not %tune -- %gcc -O2 -fprofile-use -c %s -o %t/s.o 2>&1 | %FileCheck %s --check-prefix=EXISTS
// EXISTS: loopperf-tune: GCC would write the tuner's optimization records to {{.*}}s.opt-record.json.gz, which exists: move it away
//
// A command with its own -dumpbase would read another profile and write
// other records than the tuner derives from -o: refused, before any compile.
// RUN: rm %t/s.opt-record.json.gz
// RUN: not %tune -- %gcc -O2 -fprofile-use -dumpbase %t/other -c %s -o %t/s.o 2>&1 | %FileCheck %s --check-prefix=DUMPBASE
// DUMPBASE: loopperf-tune: GCC's -dumpbase changes the profile's and the records' names, which the tuner derives from the object's: remove it
static __attribute__((noinline)) long count_e(const unsigned char *s, long n) {
  long c = 0;
  for (long i = 0; i < n; ++i)
    c += s[i] == 'e';
  return c;
}
long count_entry(const unsigned char *s, long n) { return count_e(s, n); }
