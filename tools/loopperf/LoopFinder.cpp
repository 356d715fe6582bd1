// LoopFinder.cpp - innermost loops of an unmarked assembly file.
//
// Assembly has no CFG, but compiler output lays loops out contiguously: the
// loop spans from the label a back branch targets to the last branch back
// to it. A loop is innermost when no other loop lies inside its span.
// Innermost spans that overlap without nesting (a rotated loop with two
// back branches) are one loop. A loop whose body branches inside it
// (if-then, if/else) is cut into blocks (loopBlocks) and analysed per path
// (loopperf/PathAnalysis.h).
//
// Which branches to an earlier label are back branches the file's control
// flow graph says (issue 15, item 1): blocks cut at branch-target and
// function labels and after branches, edges by fall-through and direct
// branches, entered at every function label and at the file's first
// statement; dominators by LLVM's generic DominatorTree over that graph.
// A branch J to an earlier label T closes a loop when the nearest common
// dominator of T and J lies inside the span [T, J]: T itself (T dominates
// J, a natural back edge) or the header of a loop laid out below its
// body's top ("jmp H; T: ...; H: ...; jne T"). When it lies outside,
// control reaches T and J by separate routes from outside the span: the
// branch is a forward edge laid out backwards (clang -O3's unrolled
// branchy loops jump from one arm back into the other, "jne .LBB1_8") or
// a jump back to shared code such as an epilogue, not a loop, unless the
// span is a cycle all the same (T reaches J inside it: a loop entered by
// two edges, which no block dominates). Such a branch on no cycle (T and J
// in different strongly connected components: the epilogue) is dropped;
// one inside a loop is dropped when its span lies inside the span of an
// earlier label's loop (it would hide that loop), and kept when it reaches
// beyond (a loop block below the latch jumping back into the body, clang's
// out-of-line else arm: its span extends the loop's region, as before).
// A branch the entries do not reach
// (code after a jump table or an indirect jump) or whose ends only the
// virtual root dominates (two functions' code) closes a loop as before.
// Dominators: LLVM's Semi-NCA over the whole file (linear-ish, the same
// code LLVM's own CFGs use) rather than a hand-written iteration.
// The spans that remain are unchanged in kind: clang -O3's unrolled
// branchy loop, whose latch block with the last element's first arm lies
// above its header (.LBB1_14, .LBB1_4: ...), is the overlap of the spans
// of those two labels, one region whose header loopBlocks finds. A loop
// block laid out outside the span (a cold block below the latch) is an
// exit to loopBlocks, as before.
#include "AsmReader.h"
#include "Regions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/GraphTraits.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/Support/GenericDomTree.h"
#include "llvm/Support/GenericDomTreeConstruction.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <tuple>

using namespace llvm;

namespace loopperf::cli {
namespace {

/// A label that names a function: a function symbol or any non-temporary
/// label (enclosingFunction's and the loop finder's notion).
bool isFunctionLabel(const AsmReader &R, const AsmStatement &S) {
  return S.Kind == AsmStatement::Kind::Label &&
         (R.isFunctionSymbol(S.Symbol) || !S.Symbol->isTemporary());
}

/// Blocks end after a branch or return (the file's graph and loopBlocks
/// cut them alike) ...
bool endsBlock(const MCInstrDesc &D) { return D.isBranch() || D.isReturn(); }

/// ... and run on into the next block unless they end with a jump or a
/// return.
bool fallsThrough(const MCInstrDesc &D) {
  return !endsBlock(D) || D.isConditionalBranch();
}

struct FlowGraph;

/// A basic block of the file's control flow graph: statements [Begin, End)
/// (the virtual root: none), its successors and predecessors.
struct FlowBlock {
  FlowGraph *Parent = nullptr;
  size_t Begin = 0, End = 0;
  unsigned Scc = 0; ///< strongly connected component (reachable blocks)
  SmallVector<FlowBlock *, 2> Succs, Preds;
  FlowGraph *getParent() const { return Parent; }
  void printAsOperand(raw_ostream &OS, bool) const { OS << Begin; }
};

/// Blocks[0] is a virtual root whose successors are the entries.
struct FlowGraph {
  std::vector<FlowBlock> Blocks;
  FlowBlock &front() { return Blocks.front(); }
};

} // namespace
} // namespace loopperf::cli

namespace llvm {
// NOLINTBEGIN(readability-identifier-naming): the names GraphTraits wants.
template <> struct GraphTraits<loopperf::cli::FlowBlock *> {
  using NodeRef = loopperf::cli::FlowBlock *;
  using ChildIteratorType = SmallVectorImpl<NodeRef>::iterator;
  static NodeRef getEntryNode(NodeRef N) { return N; }
  static ChildIteratorType child_begin(NodeRef N) { return N->Succs.begin(); }
  static ChildIteratorType child_end(NodeRef N) { return N->Succs.end(); }
};
template <> struct GraphTraits<Inverse<loopperf::cli::FlowBlock *>> {
  using NodeRef = loopperf::cli::FlowBlock *;
  using ChildIteratorType = SmallVectorImpl<NodeRef>::iterator;
  static NodeRef getEntryNode(Inverse<NodeRef> N) { return N.Graph; }
  static ChildIteratorType child_begin(NodeRef N) { return N->Preds.begin(); }
  static ChildIteratorType child_end(NodeRef N) { return N->Preds.end(); }
};
template <>
struct GraphTraits<loopperf::cli::FlowGraph *>
    : GraphTraits<loopperf::cli::FlowBlock *> {
  static NodeRef getEntryNode(loopperf::cli::FlowGraph *G) {
    return &G->front();
  }
  // The construction's root search compiles a walk over all nodes (used
  // for post-dominators only).
  using nodes_iterator =
      pointer_iterator<std::vector<loopperf::cli::FlowBlock>::iterator>;
  static nodes_iterator nodes_begin(loopperf::cli::FlowGraph *G) {
    return nodes_iterator(G->Blocks.begin());
  }
  static nodes_iterator nodes_end(loopperf::cli::FlowGraph *G) {
    return nodes_iterator(G->Blocks.end());
  }
  static unsigned size(loopperf::cli::FlowGraph *G) {
    return static_cast<unsigned>(G->Blocks.size());
  }
};
// NOLINTEND(readability-identifier-naming)
} // namespace llvm

namespace loopperf::cli {
namespace {

/// Which branches to an earlier label close a loop (the file comment): the
/// file's control flow graph and its dominator tree.
class BackBranchTest {
public:
  /// `Targets`: the labels direct branches of the file jump to;
  /// `LabelAt`: each label's statement.
  BackBranchTest(const AsmReader &R, const DenseSet<const MCSymbol *> &Targets,
                 const DenseMap<const MCSymbol *, size_t> &LabelAt);

  enum class Kind {
    Loop,   ///< closes a loop
    InLoop, ///< closes none, but lies on a cycle: an edge inside some loop
    None,   ///< lies on no cycle (a jump back to shared code)
  };
  /// What the branch at statement `Branch` to the label at statement
  /// `Target` (Target < Branch) is.
  Kind classify(size_t Branch, size_t Target) const;

private:
  /// Whether block `To` is reached from `From` through blocks that start
  /// in statements [First, Last].
  bool reachesInSpan(const FlowBlock *From, const FlowBlock *To, size_t First,
                     size_t Last) const;

  FlowGraph Graph;
  std::vector<unsigned> BlockOf; ///< statement -> index into Graph.Blocks
  DominatorTreeBase<FlowBlock, false> Dom;
};

BackBranchTest::BackBranchTest(
    const AsmReader &R, const DenseSet<const MCSymbol *> &Targets,
    const DenseMap<const MCSymbol *, size_t> &LabelAt) {
  const auto &Stmts = R.statements();
  // Blocks: cut before a branch target or function label and after a
  // branch or return (as loopBlocks cuts a loop's span).
  std::vector<std::pair<size_t, size_t>> Ranges;
  std::vector<bool> Entry;
  size_t Start = 0;
  bool StartsFunction = true; // the file's first statement is an entry
  auto Close = [&](size_t End, bool NextIsFunction) {
    if (End > Start) {
      Ranges.push_back({Start, End});
      Entry.push_back(StartsFunction);
      Start = End;
      StartsFunction = NextIsFunction;
    } else {
      StartsFunction = StartsFunction || NextIsFunction;
    }
  };
  for (size_t I = 0; I < Stmts.size(); ++I) {
    const AsmStatement &S = Stmts[I];
    if (S.Kind == AsmStatement::Kind::Label) {
      const bool Function = isFunctionLabel(R, S);
      if (Function || Targets.count(S.Symbol))
        Close(I, Function);
      continue;
    }
    if (S.Kind != AsmStatement::Kind::Instruction)
      continue;
    if (endsBlock(R.instrInfo().get(S.Inst.getOpcode())))
      Close(I + 1, false);
  }
  Close(Stmts.size(), false);

  Graph.Blocks.resize(Ranges.size() + 1);
  BlockOf.assign(Stmts.size(), 0);
  FlowBlock &Root = Graph.Blocks[0];
  Root.Parent = &Graph;
  Root.Begin = Root.End = SIZE_MAX;
  auto AddEdge = [](FlowBlock &From, FlowBlock &To) {
    From.Succs.push_back(&To);
    To.Preds.push_back(&From);
  };
  for (size_t B = 0; B < Ranges.size(); ++B) {
    FlowBlock &Blk = Graph.Blocks[B + 1];
    Blk.Parent = &Graph;
    std::tie(Blk.Begin, Blk.End) = Ranges[B];
    for (size_t I = Blk.Begin; I < Blk.End; ++I)
      BlockOf[I] = static_cast<unsigned>(B + 1);
    if (Entry[B])
      AddEdge(Root, Blk);
  }
  for (size_t B = 1; B < Graph.Blocks.size(); ++B) {
    FlowBlock &Blk = Graph.Blocks[B];
    const AsmStatement *Last = nullptr;
    for (size_t I = Blk.Begin; I < Blk.End; ++I)
      if (Stmts[I].Kind == AsmStatement::Kind::Instruction)
        Last = &Stmts[I];
    bool FallsThrough = true;
    if (Last) {
      const MCInstrDesc &D = R.instrInfo().get(Last->Inst.getOpcode());
      if (D.isBranch())
        if (const MCSymbol *T = AsmReader::branchTarget(Last->Inst))
          if (auto It = LabelAt.find(T); It != LabelAt.end())
            AddEdge(Blk, Graph.Blocks[BlockOf[It->second]]);
      FallsThrough = fallsThrough(D);
    }
    if (FallsThrough && B + 1 < Graph.Blocks.size())
      AddEdge(Blk, Graph.Blocks[B + 1]);
  }
  Dom.recalculate(Graph);
  unsigned Id = 0;
  for (auto It = scc_begin(&Graph); !It.isAtEnd(); ++It, ++Id)
    for (FlowBlock *B : *It)
      B->Scc = Id;
}

BackBranchTest::Kind BackBranchTest::classify(size_t Branch,
                                              size_t Target) const {
  FlowBlock *From = const_cast<FlowBlock *>(&Graph.Blocks[BlockOf[Branch]]);
  FlowBlock *To = const_cast<FlowBlock *>(&Graph.Blocks[BlockOf[Target]]);
  // Unreachable from every entry (after a jump table or an indirect
  // jump, a hand-written snippet): a branch back closes a loop, as before.
  if (!Dom.isReachableFromEntry(From))
    return Kind::Loop;
  const FlowBlock *D = Dom.findNearestCommonDominator(From, To);
  // Only the virtual root dominates both: code of two entries.
  if (D == &Graph.Blocks[0] || (D->Begin <= Branch && D->End > Target))
    return Kind::Loop;
  // A cycle inside the span all the same, entered by more than one edge
  // (irreducible: no block of it dominates the others): as before.
  if (reachesInSpan(To, From, Target, Branch))
    return Kind::Loop;
  return From->Scc == To->Scc ? Kind::InLoop : Kind::None;
}

bool BackBranchTest::reachesInSpan(const FlowBlock *From, const FlowBlock *To,
                                   size_t First, size_t Last) const {
  SmallVector<const FlowBlock *, 16> Work{From};
  DenseSet<const FlowBlock *> Seen{From};
  while (!Work.empty()) {
    const FlowBlock *B = Work.pop_back_val();
    if (B == To)
      return true;
    for (const FlowBlock *S : B->Succs)
      if (S->Begin >= First && S->Begin <= Last && Seen.insert(S).second)
        Work.push_back(S);
  }
  return false;
}

} // namespace

std::vector<CodeRegion> findInnermostLoops(const AsmReader &R) {
  const auto &Stmts = R.statements();
  DenseMap<const MCSymbol *, size_t> LabelAt;
  for (size_t I = 0; I < Stmts.size(); ++I)
    if (Stmts[I].Kind == AsmStatement::Kind::Label)
      LabelAt.try_emplace(Stmts[I].Symbol, I);

  // Direct branches: statement -> target label statement.
  std::vector<std::pair<size_t, size_t>> Branches;
  const DenseSet<const MCSymbol *> &Targets = R.branchTargets();
  bool AnyBack = false;
  for (size_t J = 0; J < Stmts.size(); ++J) {
    const AsmStatement &S = Stmts[J];
    if (S.Kind != AsmStatement::Kind::Instruction ||
        !R.instrInfo().get(S.Inst.getOpcode()).isBranch())
      continue;
    const MCSymbol *Target = AsmReader::branchTarget(S.Inst);
    if (!Target)
      continue;
    auto It = LabelAt.find(Target);
    if (It != LabelAt.end()) {
      Branches.push_back({J, It->second});
      AnyBack = AnyBack || It->second <= J;
    }
  }
  std::optional<BackBranchTest> Back;
  if (AnyBack)
    Back.emplace(R, Targets, LabelAt);

  // Header label statement -> last back-branch statement, in header order.
  std::map<size_t, size_t> Spans;
  std::map<size_t, size_t> FirstLatch; // header -> first back branch
  auto AddSpan = [&](size_t J, size_t T) {
    size_t &Latch = Spans[T];
    Latch = std::max(Latch, J);
    auto [It, New] = FirstLatch.try_emplace(T, J);
    if (!New)
      It->second = std::min(It->second, J);
  };
  // Edges inside a loop laid out backwards: a span that reaches beyond
  // the spans of the loops found (a loop block below the latch jumping
  // back into the body: clang's out-of-line else arm) extends its loop's
  // region, as before; one nested inside the span of an earlier label's
  // loop (clang -O3's unrolled arms) would hide that loop and is dropped.
  std::vector<std::pair<size_t, size_t>> Inside;
  for (auto [J, T] : Branches) {
    if (T > J)
      continue;
    switch (Back->classify(J, T)) {
    case BackBranchTest::Kind::Loop:
      AddSpan(J, T);
      break;
    case BackBranchTest::Kind::InLoop:
      Inside.push_back({J, T});
      break;
    case BackBranchTest::Kind::None:
      break;
    }
  }
  if (!Inside.empty()) {
    // The greatest latch among the spans of labels up to each label.
    std::vector<std::pair<size_t, size_t>> Reach(Spans.begin(), Spans.end());
    for (size_t I = 1; I < Reach.size(); ++I)
      Reach[I].second = std::max(Reach[I].second, Reach[I - 1].second);
    for (auto [J, T] : Inside) {
      auto It = std::lower_bound(Reach.begin(), Reach.end(),
                                 std::pair<size_t, size_t>(T, 0));
      if (It == Reach.begin() || std::prev(It)->second < J)
        AddSpan(J, T);
    }
  }
  std::vector<std::pair<size_t, size_t>> Loops(Spans.begin(), Spans.end());
  const size_t N = Loops.size();

  // A loop is innermost when no later-starting span ends inside it. A span
  // starting after its latch ends after it too, so it is enough that the
  // least end among all later headers lies beyond the latch (one pass
  // from the back; everything below is linear in the file, issue 19).
  std::vector<bool> Innermost(N);
  std::vector<size_t> LeastEndAfter(N);
  size_t LeastEnd = SIZE_MAX;
  for (size_t I = N; I-- > 0;) {
    LeastEndAfter[I] = LeastEnd;
    Innermost[I] = LeastEnd > Loops[I].second;
    LeastEnd = std::min(LeastEnd, Loops[I].second);
  }
  // A loop entered in the middle from later code: an outer loop's block
  // further down jumps back to the inner loop's label, so the span to the
  // last branch back holds the outer loop's code and is not innermost,
  // while the label's first branch back closes the inner loop itself
  // (lua's luaH_newkey, clang -O2: ".LBB8_22: ...; jbe .LBB8_22", then
  // "jne .LBB8_22" from the outer loop 300 lines later). That span is taken
  // when no other span lies inside it and it touches no innermost span, so
  // every loop found before stays as it was (issue 15, item 1).
  // (The next innermost span after each, from the spans found so far: the
  // ones taken below lie between their neighbours, one pass each.)
  std::vector<size_t> NextInner(N + 1, N);
  for (size_t I = N; I-- > 0;)
    NextInner[I] = Innermost[I] ? I : NextInner[I + 1];
  for (size_t I = 0, LastInner = SIZE_MAX; I < N; ++I) {
    if (Innermost[I]) {
      LastInner = I;
      continue;
    }
    const size_t First = FirstLatch[Loops[I].first];
    if (First >= Loops[I].second || LeastEndAfter[I] <= First ||
        (LastInner != SIZE_MAX && Loops[LastInner].second >= Loops[I].first))
      continue;
    if (const size_t Next = NextInner[I + 1];
        Next < N && Loops[Next].first <= First)
      continue;
    Loops[I].second = First;
    Innermost[I] = true;
    LastInner = I;
  }
  // Innermost spans never contain one another, so in header order their
  // ends rise too: a span overlapping one without nesting is its
  // neighbour among the innermost spans.
  std::vector<size_t> Inner;
  for (size_t I = 0; I < N; ++I)
    if (Innermost[I])
      Inner.push_back(I);
  // The function each statement lies in: the last function label before it.
  std::vector<size_t> FunctionLabel(Stmts.size(), SIZE_MAX);
  for (size_t I = 0, Last = SIZE_MAX; I < Stmts.size(); ++I) {
    if (isFunctionLabel(R, Stmts[I]))
      Last = I;
    FunctionLabel[I] = Last;
  }

  std::vector<CodeRegion> Out;
  for (size_t K = 0; K < Inner.size(); ++K) {
    auto [Header, Latch] = Loops[Inner[K]];
    CodeRegion Region;
    Region.Kind = CodeRegion::RegionKind::Loop;
    Region.Name = Stmts[Header].Symbol->getName().str();
    Region.Begin = Header;
    Region.Headers.push_back(Header);
    // Innermost spans that overlap without nesting share blocks: one loop
    // whose arms branch back to different labels (a rotated if/else, as GCC
    // lays it out: "A: ...; H: ...; jne A; B: ...; jne H"). They are one
    // region from the first label to the last latch; which label is the
    // header its blocks say (loopBlocks).
    while (K + 1 < Inner.size() && Loops[Inner[K + 1]].first <= Latch &&
           Loops[Inner[K + 1]].second > Latch) {
      ++K;
      Region.Headers.push_back(Loops[Inner[K]].first);
      Latch = Loops[Inner[K]].second;
    }
    Region.End = Latch + 1;
    Region.Loc = Stmts[Header].Loc;
    if (FunctionLabel[Header] != SIZE_MAX)
      Region.Function = Stmts[FunctionLabel[Header]].Symbol->getName().str();
    Out.push_back(std::move(Region));
  }
  return Out;
}

std::optional<LoopBlocks> loopBlocks(const AsmReader &R,
                                     const CodeRegion &Region,
                                     const BranchHint &Hint) {
  const auto &Stmts = R.statements();
  if (Region.Kind != CodeRegion::RegionKind::Loop ||
      Region.Begin >= Region.End || Region.End > Stmts.size() ||
      Stmts[Region.Begin].Kind != AsmStatement::Kind::Label)
    return std::nullopt;
  // Labels some direct branch of the file targets start a block.
  const llvm::DenseSet<const MCSymbol *> &Targets = R.branchTargets();
  LoopBlocks Out;
  DenseMap<const MCSymbol *, unsigned> BlockOfLabel;
  size_t Start = Region.Begin;
  bool HasInstruction = false;
  auto Close = [&](size_t End) {
    if (HasInstruction)
      Out.Statements.push_back({Start, End});
    Start = End;
    HasInstruction = false;
  };
  for (size_t I = Region.Begin; I < Region.End; ++I) {
    const AsmStatement &S = Stmts[I];
    if (S.Kind == AsmStatement::Kind::Label) {
      if (I != Region.Begin && Targets.count(S.Symbol))
        Close(I);
      BlockOfLabel[S.Symbol] = static_cast<unsigned>(Out.Statements.size());
      continue;
    }
    if (S.Kind != AsmStatement::Kind::Instruction)
      continue;
    HasInstruction = true;
    if (endsBlock(R.instrInfo().get(S.Inst.getOpcode())))
      Close(I + 1);
  }
  Close(Region.End);
  const size_t N = Out.Statements.size();
  if (N < 2)
    return std::nullopt;

  bool Branchy = false;
  for (size_t B = 0; B < N; ++B) {
    LoopBlock Blk;
    Blk.LayoutPosition = static_cast<unsigned>(B);
    if (B + 1 < N)
      Blk.LayoutNext = static_cast<unsigned>(B + 1);
    // The block's last instruction decides its successors.
    const AsmStatement *Last = nullptr;
    for (size_t I = Out.Statements[B].first; I < Out.Statements[B].second; ++I)
      if (Stmts[I].Kind == AsmStatement::Kind::Instruction)
        Last = &Stmts[I];
    const MCInstrDesc &D = R.instrInfo().get(Last->Inst.getOpcode());
    const bool FallsThrough = fallsThrough(D);
    std::optional<unsigned> Taken;
    if (D.isBranch())
      if (const MCSymbol *T = AsmReader::branchTarget(Last->Inst))
        if (auto It = BlockOfLabel.find(T); It != BlockOfLabel.end())
          Taken = It->second;
    if (Taken) {
      Blk.Succs.push_back(*Taken);
      // A jump to a block of the loop other than the next one or the
      // header skips code of the loop.
      if (!D.isConditionalBranch() && *Taken != B + 1 && *Taken != 0)
        Branchy = true;
    }
    if (FallsThrough && B + 1 < N && Taken != B + 1)
      Blk.Succs.push_back(static_cast<unsigned>(B + 1));
    if (Blk.Succs.size() == 2) {
      Branchy = true;
      if (std::optional<double> P = Hint.at(Last->Line))
        Blk.SuccProbs = {*P, 1 - *P};
    }
    Out.Shape.Blocks.push_back(std::move(Blk));
  }
  Out.Shape.Header = 0;
  if (!Branchy)
    return std::nullopt;
  // Overlapping spans merged (findInnermostLoops): the header is the label
  // every iteration passes, the first candidate whose paths all return to
  // it.
  if (Region.Headers.size() > 1)
    for (size_t H : Region.Headers) {
      auto It = BlockOfLabel.find(Stmts[H].Symbol);
      if (It == BlockOfLabel.end())
        continue;
      Out.Shape.Header = It->second;
      std::string Why;
      if (enumeratePaths(Out.Shape, 1, Why))
        break;
    }
  return Out;
}

std::string enclosingFunction(const AsmReader &R, size_t Statement) {
  const auto &Stmts = R.statements();
  for (size_t I = std::min(Statement + 1, Stmts.size()); I-- > 0;)
    if (isFunctionLabel(R, Stmts[I]))
      return Stmts[I].Symbol->getName().str();
  return {};
}

} // namespace loopperf::cli
