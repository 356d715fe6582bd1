// ModelCheck.cpp - internal-consistency checks of a machine model.
#include "loopperf/ModelCheck.h"
#include "loopperf/X86.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace loopperf {

double portBound(std::span<const ResourceUse> Uses) {
  // The bound max_S load(S)/|S| is attained at a union of the demands' own
  // port sets, so enumerate unions of the distinct masks (few per form).
  std::vector<std::pair<PortMask, double>> Masks;
  for (const ResourceUse &U : Uses) {
    auto It = std::find_if(Masks.begin(), Masks.end(),
                           [&](auto &P) { return P.first == U.Ports; });
    if (It == Masks.end())
      Masks.push_back({U.Ports, U.Cycles});
    else
      It->second += U.Cycles;
  }
  if (Masks.size() > 16) // not a realistic form; keep the check cheap
    Masks.resize(16);
  double Best = 0;
  for (uint32_t Sel = 1; Sel < (1u << Masks.size()); ++Sel) {
    PortMask S = 0;
    for (size_t I = 0; I < Masks.size(); ++I)
      if (Sel >> I & 1)
        S |= Masks[I].first;
    double Load = 0;
    for (auto &[m, c] : Masks)
      if ((m & ~S) == 0)
        Load += c;
    if (S)
      Best = std::max(Best, Load / std::popcount(S));
  }
  return Best;
}

namespace {

bool sameNumbers(const MachineModel &M, const InstrForm &A,
                 const InstrForm &B) {
  if (A.Uops != B.Uops || A.Latency != B.Latency ||
      A.Rthroughput != B.Rthroughput || A.ResCount != B.ResCount ||
      (A.Flags & FormUnsupported) != (B.Flags & FormUnsupported))
    return false;
  auto Ra = M.resourcesOf(A), Rb = M.resourcesOf(B);
  for (size_t I = 0; I < Ra.size(); ++I)
    if (Ra[I].Ports != Rb[I].Ports || Ra[I].Cycles != Rb[I].Cycles)
      return false;
  return true;
}

/// Destination operand class of a key: AT&T puts it last, AArch64 first.
std::string_view destinationClass(const MachineModel &M, std::string_view Key) {
  size_t Sp = Key.find(' ');
  if (Sp == std::string_view::npos)
    return {};
  std::string_view Ops = Key.substr(Sp + 1);
  if (M.Isa == "aarch64")
    return Ops.substr(0, Ops.find(','));
  size_t Comma = Ops.rfind(',');
  return Comma == std::string_view::npos ? Ops : Ops.substr(Comma + 1);
}

bool isRegisterClass(std::string_view C) {
  C = C.substr(0, C.find('{'));
  return !C.empty() && C != "imm" && C != "mem" && C != "mem!" &&
         C != "label" && C != "rc" && C != "sae" && C != "sysreg" &&
         C != "cond" && C != "shift" && C != "ext";
}

/// A register-to-register move of one class that the model's rule
/// `moveElimination` executes at rename: latency 0 is right for it.
/// Masked moves merge into their destination and are not such moves.
/// Also exchanges and movslq r32,r32 (movsxd), which AMD's guides list as
/// zero-cycle moves, and register NOPs, which write nothing.
bool eliminatedMove(const MachineModel &M, std::string_view Key) {
  if (M.Isa != "x86-64" || Key.find('{') != std::string_view::npos)
    return false;
  size_t Sp = Key.find(' ');
  if (Sp == std::string_view::npos)
    return false;
  std::string_view Mn = Key.substr(0, Sp);
  if (Mn.substr(0, 3) == "nop")
    return true;
  if (!M.Rules.MoveElimination)
    return false;
  if (!x86::isEliminableMoveMnemonic(Mn) && Mn != "xchgl" && Mn != "xchgq" &&
      Mn != "movslq")
    return false;
  std::string_view Ops = Key.substr(Sp + 1);
  size_t Comma = Ops.find(',');
  return Comma != std::string_view::npos &&
         Ops.substr(0, Comma) == Ops.substr(Comma + 1) &&
         isRegisterClass(Ops.substr(0, Comma));
}

} // namespace

std::vector<ModelFinding> checkModel(const MachineModel &M) {
  std::vector<ModelFinding> Out;
  auto Add = [&](ModelFinding::SeverityKind Sev, std::string Kind,
                 const InstrForm *F, std::string Msg) {
    ModelFinding X;
    X.Severity = Sev;
    X.Kind = std::move(Kind);
    if (F) {
      X.Opcode = std::string(M.opcode(*F));
      X.AsmKey = std::string(M.asmKey(*F));
    }
    X.Message = std::move(Msg);
    Out.push_back(std::move(X));
  };
  using Sev = ModelFinding::SeverityKind;

  const PortMask Valid =
      M.Ports.size() >= 64 ? ~PortMask(0) : (PortMask(1) << M.Ports.size()) - 1;
  if (M.DividerPort >= static_cast<int>(M.Ports.size()))
    Add(Sev::Error, "bad-port-mask", nullptr,
        fmt::format("divider port {} does not exist ({} ports)", M.DividerPort,
                    M.Ports.size()));
  if (M.LoadPorts & ~Valid)
    Add(Sev::Error, "bad-port-mask", nullptr,
        "load ports name a port that does not exist");
  if (M.StorePorts & ~Valid)
    Add(Sev::Error, "bad-port-mask", nullptr,
        "store ports name a port that does not exist");

  PortMask Used = 0;
  for (const InstrForm &F : M.Forms) {
    if (F.ResBegin + F.ResCount > M.Resources.size()) {
      Add(Sev::Error, "bad-port-mask", &F,
          "resource list lies outside the resource table");
      continue;
    }
    auto Res = M.resourcesOf(F);
    bool BadMask = false;
    for (const ResourceUse &U : Res) {
      Used |= U.Ports;
      BadMask |= (U.Ports & ~Valid) != 0 || U.Ports == 0;
    }
    if (BadMask) {
      Add(Sev::Error, "bad-port-mask", &F,
          "a resource demand names a port that does not exist");
      continue;
    }
    if (F.Flags & FormUnsupported)
      continue;
    double Bound = portBound(Res);
    if (F.Rthroughput + std::max(0.01, 0.01 * Bound) < Bound)
      Add(Sev::Warning, "throughput-below-port-bound", &F,
          fmt::format("reciprocal throughput {:.3g} is below the port bound "
                      "{:.3g} of its "
                      "resources",
                      F.Rthroughput, Bound));
    if (F.Latency == 0 && !(F.Flags & (FormMayStore | FormBranch)) &&
        isRegisterClass(destinationClass(M, M.asmKey(F))) &&
        !eliminatedMove(M, M.asmKey(F)))
      Add(Sev::Warning, "zero-latency", &F,
          "writes a register but has latency 0");
  }
  for (size_t P = 0; P < M.Ports.size() && P < 64; ++P)
    if (!(Used >> P & 1))
      Add(Sev::Warning, "unused-port", nullptr,
          fmt::format("port {} is used by no form", M.Ports[P].Name));

  // Duplicates: forms are sorted by opcode; byAsmKey groups keys.
  for (size_t I = 1; I < M.Forms.size(); ++I) {
    const InstrForm &A = M.Forms[I - 1], &B = M.Forms[I];
    if (!M.opcode(A).empty() && M.opcode(A) == M.opcode(B) &&
        M.asmKey(A) == M.asmKey(B) && !sameNumbers(M, A, B))
      Add(Sev::Error, "conflicting-duplicate", &B,
          fmt::format("opcode {} appears twice with different numbers",
                      M.opcode(B)));
  }
  for (size_t I = 1; I < M.ByAsmKey.size(); ++I) {
    const InstrForm &A = M.Forms[M.ByAsmKey[I - 1]],
                    &B = M.Forms[M.ByAsmKey[I]];
    if (M.asmKey(A).empty() || M.asmKey(A) != M.asmKey(B) ||
        M.opcode(A) == M.opcode(B) || ((A.Flags | B.Flags) & FormUnsupported) ||
        sameNumbers(M, A, B))
      continue;
    Add(Sev::Note, "conflicting-duplicate", &B,
        fmt::format("key '{}' is shared by {} and {} with different numbers; "
                    "lookups by key use {}",
                    M.asmKey(B), M.opcode(A), M.opcode(B),
                    M.opcode(M.Forms[M.ByAsmKey[I - 1]])));
  }
  return Out;
}

} // namespace loopperf
