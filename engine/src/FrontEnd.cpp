// FrontEnd.cpp - fused-domain uop count and the front-end bound.
//
//   fused(i)   = uops(i) - [load micro-fused] - [store micro-fused], at least 1
//                (micro-fusion needs rules.microFusion; an indexed memory
//                operand un-laminates when rules.unlaminateIndexed)
//   fused pair = a macro-fusible cmp/test/... and the following conditional
//                branch count as the first one's uops (the branch adds 0)
//   bound      = max( fused / dispatchWidth,
//                     fused / uopCacheWidth     when not in the loop buffer,
//                     macroOps / decodeWidth    when the loop is known not to
//                                               fit the loop buffer and the
//                                               model has no uop cache,
//                     1 / takenBranchesPerCycle (the back-edge),
//                     lineCrossing.minCycles    when the body spans more
//                                               than one lineCrossing.bytes
//                                               line (majority of possible
//                                               placements, ties: fewer) )
// A parameter whose value is 0 is unknown and its term is skipped; so is
// the line term when the kernel's layout is unknown.
#include "FrontEnd.h"
#include "Stage.h"

#include "loopperf/Isa.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>

namespace loopperf::detail {

std::string matchStem(std::string_view Mnemonic,
                      const std::vector<std::string> &Stems) {
  std::string M(Mnemonic);
  for (char &C : M)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  auto Has = [&](const std::string &S) {
    return std::find(Stems.begin(), Stems.end(), S) != Stems.end();
  };
  if (Has(M))
    return M;
  if (M.size() > 2 &&
      std::string_view("bwlq").find(M.back()) != std::string_view::npos) {
    M.pop_back();
    if (Has(M))
      return M;
  }
  return {};
}

namespace {

unsigned fusedUops(const ResolvedInst &R, const SpecialRules &Rules) {
  if (R.Unknown || !Rules.MicroFusion || R.Uops < 2)
    return std::max(1u, R.Uops);
  bool Unlaminated = Rules.UnlaminateIndexed && R.IndexedMem;
  unsigned U = R.Uops;
  if (!Unlaminated) {
    if (R.Loads && U > 1)
      --U; // the load uop travels with the operation
    if (R.Stores && U > 1)
      --U; // store-address and store-data are one fused uop
  }
  return U;
}

bool canMacroFuse(const Instruction &First, const Instruction &Branch,
                  const SpecialRules &Rules) {
  if (!Branch.IsBranch || !Branch.IsConditional || First.IsBranch)
    return false;
  if (matchStem(formOperation(First), Rules.MacroFusible).empty())
    return false;
  // A memory operand together with an immediate does not fuse on any core.
  bool HasMem = !First.Mem.empty();
  bool HasImm = First.FormKey.find("imm") != std::string::npos;
  return !(HasMem && HasImm);
}

/// "2" or "2 to 3": the line counts of the placements that cross.
std::string crossingLines(const LayoutReport &L) {
  unsigned Lo = 0, Hi = 0;
  for (unsigned N : L.LinesAt)
    if (N > 1) {
      Lo = Lo ? std::min(Lo, N) : N;
      Hi = std::max(Hi, N);
    }
  return Lo == Hi ? fmt::format("{}", Lo) : fmt::format("{} to {}", Lo, Hi);
}

} // namespace

LayoutReport analyzeLayout(const CodeLayout &Layout, const MachineModel &M) {
  LayoutReport R;
  if (!Layout.known())
    return R;
  R.Known = true;
  R.Section = Layout.Section;
  R.SectionOffset = Layout.SectionOffset;
  R.SectionAlignment = std::max<uint64_t>(Layout.SectionAlignment, 1);
  R.AddressKnown = Layout.Address.has_value();
  R.Address = Layout.Address.value_or(0);
  R.Bytes = Layout.Bytes;
  R.LineBytes = M.Rules.LineCrossing.Bytes ? M.Rules.LineCrossing.Bytes : 64;
  const uint64_t Line = R.LineBytes;
  if (R.AddressKnown) {
    R.Placements.push_back(static_cast<unsigned>(R.Address % Line));
  } else {
    // start = offset + k·alignment: modulo the line, every offset that is
    // congruent to it modulo gcd(alignment, line).
    uint64_t Step = std::gcd(R.SectionAlignment, Line);
    for (uint64_t O = R.SectionOffset % Step; O < Line; O += Step)
      R.Placements.push_back(static_cast<unsigned>(O));
  }
  std::map<unsigned, unsigned> HowOften;
  for (unsigned P : R.Placements) {
    unsigned N =
        R.Bytes ? static_cast<unsigned>((P + R.Bytes - 1) / Line + 1) : 1;
    R.LinesAt.push_back(N);
    ++HowOften[N];
    R.CrossingPlacements += N > 1;
  }
  // The count most placements give; on a tie the smaller (map order).
  unsigned Best = 0;
  for (auto [n, times] : HowOften)
    if (times > Best) {
      Best = times;
      R.LinesSpanned = n;
    }
  return R;
}

std::vector<std::string> layoutNotes(const LayoutReport &L,
                                     const MachineModel &M) {
  const SpecialRules::LineCrossingRule &Rule = M.Rules.LineCrossing;
  std::vector<std::string> Notes;
  if (!L.Known || Rule.Bytes == 0 || Rule.MinCycles <= 0 ||
      L.CrossingPlacements == 0)
    return Notes;
  std::string Avoid =
      L.Bytes <= L.LineBytes
          ? fmt::format("; align the loop to {0} (-falign-loops={0}) to avoid",
                        L.LineBytes)
          : std::string();
  if (L.Placements.size() == 1) {
    Notes.push_back(fmt::format("the loop's {} bytes start at offset {} of a "
                                "{}-byte line and span {} lines: at least {} "
                                "cycles/iteration on this model{}",
                                L.Bytes, L.Placements[0], L.LineBytes,
                                L.LinesAt[0], Rule.MinCycles, Avoid));
  } else if (L.CrossingPlacements == L.Placements.size()) {
    Notes.push_back(fmt::format("the loop's {} bytes span {} {}-byte lines "
                                "wherever it is placed: at least {} "
                                "cycles/iteration on this model",
                                L.Bytes, crossingLines(L), L.LineBytes,
                                Rule.MinCycles));
  } else {
    uint64_t Step = std::gcd(L.SectionAlignment, uint64_t(L.LineBytes));
    Notes.push_back(fmt::format("spans {} {}-byte lines at {} of {} placements "
                                "(aligned to {}): {} cycles/iteration "
                                "there{}; the bound takes what most placements "
                                "give ({} line{}; a tie counts as fewer)",
                                crossingLines(L), L.LineBytes,
                                L.CrossingPlacements, L.Placements.size(), Step,
                                Rule.MinCycles, Avoid, L.LinesSpanned,
                                L.LinesSpanned == 1 ? "" : "s"));
  }
  return Notes;
}

FrontEndResult analyzeFrontEnd(const LoopKernel &K, InstructionView Insts,
                               const std::vector<ResolvedInst> &Res,
                               const MachineModel &M) {
  FrontEndResult Fe;
  size_t N = Insts.size();
  Fe.FusedWithNext.assign(N, false);
  Fe.FusedUopsOf.assign(N, 0);
  for (size_t I = 0; I < N; ++I) {
    if (I > 0 && Fe.FusedWithNext[I - 1])
      continue; // the branch rides with its flag producer
    Fe.FusedUopsOf[I] = fusedUops(Res[I], M.Rules);
    if (I + 1 < N && canMacroFuse(Insts[I], Insts[I + 1], M.Rules))
      Fe.FusedWithNext[I] = true;
    Fe.FusedUops += Fe.FusedUopsOf[I];
    ++Fe.MacroOps;
  }

  const PipelineParams &P = M.Pipeline;
  auto Consider = [&](double Cycles, Limiter::ResourceKind What, double Width,
                      double Amount) {
    if (Cycles > Fe.Bound) {
      Fe.Bound = Cycles;
      Fe.Limit = Limiter{};
      Fe.Limit.Resource = What;
      Fe.Limit.Width = Width;
      Fe.Limit.Amount = Amount;
    }
  };
  if (P.DispatchWidth.Value > 0)
    Consider(Fe.FusedUops / P.DispatchWidth.Value,
             Limiter::ResourceKind::Dispatch, P.DispatchWidth.Value,
             Fe.FusedUops);
  const double BodyUops = K.BodyFusedUops > 0 ? K.BodyFusedUops : Fe.FusedUops;
  bool InLoopBuffer =
      P.LoopBufferSize.Value > 0 && BodyUops <= P.LoopBufferSize.Value;
  if (!InLoopBuffer && P.UopCacheWidth.Value > 0)
    Consider(Fe.FusedUops / P.UopCacheWidth.Value,
             Limiter::ResourceKind::UopCache, P.UopCacheWidth.Value,
             Fe.FusedUops);
  bool KnownTooBigForLoopBuffer = P.LoopBufferSize.Value > 0 && !InLoopBuffer;
  if (KnownTooBigForLoopBuffer && P.UopCacheWidth.Value <= 0 &&
      P.DecodeWidth.Value > 0)
    Consider(Fe.MacroOps / P.DecodeWidth.Value, Limiter::ResourceKind::Decode,
             P.DecodeWidth.Value, Fe.MacroOps);
  if (P.TakenBranchesPerCycle.Value > 0) {
    const double Taken = K.TakenBranches ? K.TakenBranches : 1;
    Consider(Taken / P.TakenBranchesPerCycle.Value,
             Limiter::ResourceKind::TakenBranches,
             P.TakenBranchesPerCycle.Value, Taken);
  }
  Fe.Layout = analyzeLayout(K.Layout, M);
  const SpecialRules::LineCrossingRule &Lc = M.Rules.LineCrossing;
  if (Fe.Layout.Known && Lc.Bytes > 0 && Lc.MinCycles > 0 &&
      Fe.Layout.LinesSpanned > 1) {
    Fe.Layout.LineCrossingCycles = Lc.MinCycles;
    if (Lc.MinCycles > Fe.Bound) {
      Consider(Lc.MinCycles, Limiter::ResourceKind::LineCrossing, 0,
               Fe.Layout.LinesSpanned);
      Fe.Limit.LineBytes = Lc.Bytes;
      Fe.Limit.CrossingPlacements = Fe.Layout.CrossingPlacements;
      Fe.Limit.Placements = static_cast<unsigned>(Fe.Layout.Placements.size());
    }
  }
  return Fe;
}

namespace {

StageResult runFrontEnd(StageContext &C, LoopReport &R) {
  FrontEndResult Fe = analyzeFrontEnd(C.Kernel, C.Insts, C.Res, C.Model);
  R.FrontEndUops = Fe.FusedUops;
  R.Layout = Fe.Layout;
  if (C.Scope.PerInstruction)
    for (unsigned I = 0; I < C.Res.size(); ++I)
      R.PerInstruction[I].FusedWithNext = Fe.FusedWithNext[I];
  // Fusion is this stage's product for the stages after it (StageContext).
  C.FusedWithNext = Fe.FusedWithNext;
  for (std::string &N : layoutNotes(R.Layout, C.Model))
    R.Notes.push_back(std::move(N));
  StageResult Out;
  Out.Kind = BottleneckKind::FrontEnd;
  Out.Bound = Fe.Bound;
  Out.Limit = std::move(Fe.Limit);
  return Out;
}

std::string frontEndDetail(const StageResult &, const LoopReport &R,
                           const MachineModel &) {
  return fmt::format("({} fused uops, {} unfused)", R.FrontEndUops, R.Uops);
}

} // namespace

const Stage FrontEndStage = {{"front-end", "front end", "front_end", "FrontEnd",
                              /*throughput=*/true,
                              /*tieRank=*/3, frontEndDetail},
                             runFrontEnd};

} // namespace loopperf::detail
