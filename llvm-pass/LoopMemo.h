// LoopMemo.h - loops that repeat an earlier loop of the module, found in
// their machine code before a kernel is built.
//
// Many innermost loops of a file repeat an earlier one (issue 20: 53 of the
// 72 of bench/compile-time's unit029.c): the same instructions, operands
// and block structure, in other functions, at other source lines, with
// other block labels. The memo keys a loop by what buildLoopBody and the
// translation read of its machine code (LoopKey): the subtarget and the
// model, the loop's blocks in layout order with their successors inside
// the loop and which block follows which, and of every instruction that
// enters a kernel its opcode and the operands MachineLowering reads
// (explicit registers, immediates, symbols by identity or name, constant
// pool and jump table entries with the function's number). Not keyed:
// debug locations, meta instructions (DBG_VALUE...), implicit register
// operands, branch probabilities (a single path does not read them), and
// the target of a plain branch (not a call, loads nothing) as a block
// label: it is keyed as the loop block it goes to, or "outside the loop".
//
// A hit (equal hash, then equal key words) reuses the remembered kernel
// and report, lent to the loop (moved, not copied, and given back after
// its remarks) and relocated to it: re-derived from the loop are every
// instruction's source location, the body's location, the kernel's name
// and function, the texts of the branches keyed without their labels
// (lowered and translated again: the translator's cache copies them), and
// the report's kernel name and limiter lines (AnalysisMemo::relocate). A
// re-translated branch that differs in anything the analysis reads
// (AnalysisMemo::sameInstruction; an unknown instruction's text too) is a
// miss. So a hit gives what buildLoopBody, analyzeLoop and every remark
// would give (test/lit/llvm-pass/memo.c compares with memo=0).
//
// Only single-path loops that were analysed are remembered: multi-path
// bodies read the branch probabilities; missed bodies are cheap.
// Not thread-safe: one memo per pass instance.
#pragma once

#include "LoopBody.h"
#include "Remarks.h"

#include "loopperf/Report.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace llvm {
class MachineInstr;
class MachineLoop;
} // namespace llvm

namespace loopperf {
struct MachineModel;
}

namespace loopperf::llvmpass {

/// A 64-bit hash of a memo's key words (LoopMemo, FrequencyMemo); not a
/// stable format: equal words give equal hashes within one process.
uint64_t hashWords(const std::vector<uint64_t> &W);

/// A loop's machine code as LoopMemo keys it.
struct LoopKey {
  std::vector<uint64_t> Words;
  uint64_t Hash = 0;
  /// The instructions that enter a kernel, in layout order.
  std::vector<const llvm::MachineInstr *> Insts;
};

class LoopMemo {
public:
  /// Loops remembered at most (then nothing more is remembered).
  static constexpr size_t MaxEntries = 1024;

  /// A remembered loop: its kernel and report as last relocated.
  struct Entry {
    std::vector<uint64_t> Words;
    LoopKernel Kernel;
    unsigned TakenBranches = 1;
    LoopReport Report;
    /// Each kernel instruction's place in LoopKey::Insts.
    std::vector<unsigned> Origins;
    /// The kernel instructions whose branch label is re-derived.
    std::vector<unsigned> Relabel;
    /// The summary's middle, worded once for every loop that reuses the
    /// report (SummaryCoreMemo says when it is worded again).
    SummaryCoreMemo Summary;
  };

  /// Keys `L` (single-path loops only: false for a loop with control flow
  /// inside) for loops analysed on `Model`.
  static bool key(const llvm::MachineLoop &L, const MachineModel &Model,
                  LoopKey &Out);

  /// The entry remembered under `Key`, with its branches to relabel
  /// lowered and translated again for the keyed loop (`Relabelled`); null
  /// when there is none or a re-translated branch does not match.
  Entry *find(const LoopKey &Key, MachineLowering &Lowering,
              const llvmmc::MCInstTranslator &Translator,
              std::vector<Instruction> &Relabelled);
  /// What `L`'s body takes from a hit before its kernel is needed: header,
  /// location, taken branches (no kernel: lend() gives it).
  static void locate(const Entry &E, const LoopKey &Key,
                     const llvm::MachineLoop &L, LoopBody &Body);
  /// Moves `E`'s kernel into `Body` (located by locate()) and its report
  /// into `R`, both relocated to `Body`'s loop (keyed `Key`): no copies.
  /// giveBack() returns them.
  static void lend(Entry &E, const LoopKey &Key,
                   std::vector<Instruction> &&Relabelled, LoopBody &Body,
                   LoopReport &R);
  static void giveBack(Entry &E, LoopBody &Body, LoopReport &R);

  /// Remembers `Body`'s kernel (built by buildLoopBody from the loop keyed
  /// `Key`), its report `R` and the summary's middle worded for them
  /// (`Summary`); all are moved in.
  void remember(LoopKey &&Key, LoopBody &&Body, LoopReport &&R,
                SummaryCoreMemo &&Summary);

  size_t lookups() const { return Lookups; }
  size_t hits() const { return Hits; }
  size_t size() const { return Entries.size(); }

private:
  std::unordered_multimap<uint64_t, Entry> Entries;
  size_t Lookups = 0, Hits = 0;
};

} // namespace loopperf::llvmpass
