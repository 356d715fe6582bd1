// MachineModel.cpp - lookups over the instruction-form table.
#include "loopperf/MachineModel.h"

#include <algorithm>
#include <memory>
#include <new>
#include <numeric>
#include <type_traits>

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
                             [](const InstrForm &F, std::string_view Op) {
                               if (F.Opcode.empty())
                                 return false;
                               return F.Opcode < Op;
                             });
  if (It != Forms.end() && It->Opcode == Opcode)
    return &*It;
  return nullptr;
}

bool MachineModel::asmKeyBefore(const InstrForm &A, const InstrForm &B) {
  if (A.AsmKey != B.AsmKey)
    return A.AsmKey < B.AsmKey;
  const bool UnsupportedA = A.Flags & FormUnsupported,
             UnsupportedB = B.Flags & FormUnsupported;
  if (UnsupportedA != UnsupportedB)
    return UnsupportedB;
  return !accumulatorForm(A.Opcode) && accumulatorForm(B.Opcode);
}

const InstrForm *MachineModel::findAsmKey(std::string_view Key) const {
  auto It = std::lower_bound(
      ByAsmKey.begin(), ByAsmKey.end(), Key,
      [&](uint32_t I, std::string_view K) { return Forms[I].AsmKey < K; });
  if (It != ByAsmKey.end() && Forms[*It].AsmKey == Key)
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

std::string_view MachineModel::OwnedTables::intern(std::string S) {
  Strings.push_back(std::make_unique<std::string>(std::move(S)));
  return *Strings.back();
}

void MachineModel::finalizeStorage() {
  if (!Storage)
    return;
  auto &Fs = Storage->Forms;
  std::stable_sort(Fs.begin(), Fs.end(),
                   [](const InstrForm &A, const InstrForm &B) {
                     if (A.Opcode.empty() != B.Opcode.empty())
                       return B.Opcode.empty();
                     return A.Opcode < B.Opcode;
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

void MachineModel::adoptPackedForms(const char *Strings,
                                    std::span<const PackedForm> Rows) {
  if (!Storage)
    Storage = std::make_shared<OwnedTables>();
  std::allocator<InstrForm> Alloc;
  InstrForm *Out = Alloc.allocate(Rows.size());
  Storage->Decoded = std::unique_ptr<InstrForm, FreeDecodedForms>(
      Out, FreeDecodedForms{Rows.size()});
  for (const PackedForm &R : Rows)
    new (Out++)
        InstrForm{std::string_view(Strings + R.OpcodeOffset, R.OpcodeLength),
                  std::string_view(Strings + R.AsmKeyOffset, R.AsmKeyLength),
                  R.Uops,
                  R.Latency,
                  R.Rthroughput,
                  R.ResBegin,
                  R.ResCount,
                  R.Flags,
                  R.Source};
  Forms = std::span<const InstrForm>(Storage->Decoded.get(), Rows.size());
}

void FreeDecodedForms::operator()(InstrForm *P) const {
  static_assert(std::is_trivially_destructible_v<InstrForm>);
  std::allocator<InstrForm>().deallocate(P, Count);
}

bool isGenericX86Cpu(std::string_view Cpu) {
  return Cpu.empty() || Cpu == "generic" || Cpu == "intel" ||
         Cpu.substr(0, 6) == "x86-64" || Cpu == "i386" || Cpu == "i486" ||
         Cpu == "i586" || Cpu == "i686";
}

} // namespace loopperf
