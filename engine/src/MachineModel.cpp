// MachineModel.cpp - lookups over the instruction-form table.
#include "loopperf/MachineModel.h"

#include <algorithm>
#include <numeric>

namespace loopperf {
namespace {

/// LLVM's x86 accumulator forms (MachineModel::asmKeyBefore).
bool accumulatorForm(std::string_view Opcode) {
  size_t I = 0;
  while (I < Opcode.size() && Opcode[I] >= 'A' && Opcode[I] <= 'Z')
    ++I;
  const std::string_view Rest = Opcode.substr(I);
  if (I == 0)
    return false;
  for (std::string_view W : {"8i8", "16i16", "32i32", "64i32"})
    if (Rest == W)
      return true;
  return false;
}

} // namespace

const InstrForm *MachineModel::findOpcode(std::string_view Opcode) const {
  if (Opcode.empty())
    return nullptr;
  // Forms are sorted by opcode with empty opcodes last.
  auto It = std::lower_bound(Forms.begin(), Forms.end(), Opcode,
                             [&](const InstrForm &F, std::string_view Op) {
                               if (F.Opcode.Length == 0)
                                 return false;
                               return opcode(F) < Op;
                             });
  if (It != Forms.end() && opcode(*It) == Opcode)
    return &*It;
  return nullptr;
}

bool MachineModel::asmKeyBefore(const InstrForm &A, const InstrForm &B) const {
  const std::string_view KeyA = asmKey(A), KeyB = asmKey(B);
  if (KeyA != KeyB)
    return KeyA < KeyB;
  const bool UnsupportedA = A.Flags & FormUnsupported,
             UnsupportedB = B.Flags & FormUnsupported;
  if (UnsupportedA != UnsupportedB)
    return UnsupportedB;
  return !accumulatorForm(opcode(A)) && accumulatorForm(opcode(B));
}

const InstrForm *MachineModel::findAsmKey(std::string_view Key) const {
  auto It = std::lower_bound(
      ByAsmKey.begin(), ByAsmKey.end(), Key,
      [&](uint32_t I, std::string_view K) { return asmKey(Forms[I]) < K; });
  if (It != ByAsmKey.end() && asmKey(Forms[*It]) == Key)
    return &Forms[*It];
  return nullptr;
}

std::string MachineModel::portSetName(PortMask M) const {
  std::string S;
  for (size_t I = 0; I < Ports.size() && I < 64; ++I) {
    if (!(M >> I & 1))
      continue;
    if (!S.empty())
      S += '+';
    S += Ports[I].Name;
  }
  return S.empty() ? std::string("none") : S;
}

TableString MachineModel::OwnedTables::intern(std::string_view S) {
  const TableString Out{static_cast<uint32_t>(Strings.size()),
                        static_cast<uint32_t>(S.size())};
  Strings += S;
  return Out;
}

void MachineModel::finalizeStorage() {
  if (!Storage)
    return;
  Strings = Storage->Strings.c_str();
  auto &Fs = Storage->Forms;
  std::stable_sort(Fs.begin(), Fs.end(),
                   [&](const InstrForm &A, const InstrForm &B) {
                     if ((A.Opcode.Length == 0) != (B.Opcode.Length == 0))
                       return B.Opcode.Length == 0;
                     return opcode(A) < opcode(B);
                   });
  auto &Idx = Storage->ByAsmKey;
  Idx.resize(Fs.size());
  std::iota(Idx.begin(), Idx.end(), 0u);
  std::stable_sort(Idx.begin(), Idx.end(), [&](uint32_t A, uint32_t B) {
    return asmKeyBefore(Fs[A], Fs[B]);
  });
  Forms = Fs;
  ByAsmKey = Idx;
  Resources = Storage->Resources;
}

bool isGenericX86Cpu(std::string_view Cpu) {
  return Cpu.empty() || Cpu == "generic" || Cpu == "intel" ||
         Cpu.substr(0, 6) == "x86-64" || Cpu == "i386" || Cpu == "i486" ||
         Cpu == "i586" || Cpu == "i686";
}

} // namespace loopperf
