// AnalysisMemo.h - analyzeLoop's reports remembered for repeated kernels.
//
// In a compiled file many innermost loops repeat an earlier loop's kernel
// in everything the analysis reads: 1,680 of the 2,514 loops of
// bench/compile-time's generated project at -O2 and 69 of Lua 5.4's 470
// (issue 20). They differ only in what the analysis does not read: the
// block labels in their branches' texts, the instructions' source lines,
// the kernel's name and function. The memo keys a kernel without those
// (every other field of every instruction, the kernel's ISA, element
// count, layout, taken branches and fused uops; the model by identity; the
// analysis options) and relocates a remembered report to the new kernel:
// the report's kernel name and its limiters' source lines
// (Limiter::Lines) are taken from the new kernel. What else of a report
// comes from instruction texts is the texts of unknown instructions
// (UnknownInstructions, notes): a remembered report serves only a kernel
// whose unknown instructions have the same texts. So a relocated report is
// exactly analyzeLoop's on the new kernel (test/unit/AnalysisMemoTest.cpp
// compares them).
//
// The clang plugin finds its repeated loops earlier, in their machine code
// before a kernel is built (llvm-pass/LoopMemo.h), and uses relocate(),
// relocatable() and sameInstruction() from here.
//
// Not thread-safe: one memo per pass instance (a compiled file).
#pragma once

#include "loopperf/Analysis.h"
#include "loopperf/Kernel.h"
#include "loopperf/MachineModel.h"
#include "loopperf/Report.h"

#include <cstdint>
#include <optional>
#include <unordered_map>

namespace loopperf {

class AnalysisMemo {
public:
  /// Kernels remembered at most (then nothing more is remembered).
  static constexpr size_t MaxEntries = 1024;

  /// What find() computed for remember().
  struct Key {
    uint64_t Hash = 0;
    const MachineModel *Model = nullptr;
    AnalysisOptions Opts;
  };

  /// The report of a remembered kernel equal to `K` in all the analysis
  /// reads, analysed on `Model` with `Opts`, relocated to `K`; nullopt
  /// when there is none. Sets `Out` for remember().
  std::optional<LoopReport> find(const LoopKernel &K, const MachineModel &Model,
                                 const AnalysisOptions &Opts, Key &Out);
  /// Remembers `R` = analyzeLoop(K, model, opts) under `KeyOfK` (find's on
  /// `K`). Both are moved in: a caller done with them copies nothing.
  void remember(const Key &KeyOfK, LoopKernel &&K, LoopReport &&R);
  /// find(), else analyzeLoop() remembered (copies of kernel and report).
  LoopReport analyze(const LoopKernel &K, const MachineModel &Model,
                     const AnalysisOptions &Opts);

  /// Makes `R` (analyzeLoop's on a kernel equal to `K` in all the
  /// analysis reads) `K`'s report: its kernel name and its limiters' source
  /// lines are taken from `K`.
  static void relocate(LoopReport &R, const LoopKernel &K);
  /// Whether relocate() re-derives all `R` took from `K`'s locations (every
  /// limiter's lines are those of its instructions, as every stage makes
  /// them); a report that is not is not remembered.
  static bool relocatable(const LoopReport &R, const LoopKernel &K);
  /// Whether `A` and `B` are equal in everything the analysis reads of an
  /// instruction (their texts only where the fingerprint reads them).
  static bool sameInstruction(const Instruction &A, const Instruction &B);

  size_t hits() const { return Hits; }
  size_t size() const { return Entries.size(); }

private:
  struct Entry {
    const MachineModel *Model;
    AnalysisOptions Opts;
    LoopKernel Kernel;
    LoopReport Report;
  };
  std::unordered_multimap<uint64_t, Entry> Entries;
  size_t Hits = 0;
};

} // namespace loopperf
