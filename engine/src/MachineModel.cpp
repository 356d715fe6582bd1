// MachineModel.cpp - lookups over the instruction-form table.
#include "loopperf/MachineModel.h"

#include <algorithm>
#include <numeric>

namespace loopperf {

const InstrForm *MachineModel::findOpcode(std::string_view opcode) const {
  if (opcode.empty())
    return nullptr;
  // Forms are sorted by opcode with empty opcodes last.
  auto it = std::lower_bound(forms.begin(), forms.end(), opcode,
                             [](const InstrForm &f, std::string_view op) {
                               if (f.opcode.empty())
                                 return false;
                               return f.opcode < op;
                             });
  if (it != forms.end() && it->opcode == opcode)
    return &*it;
  return nullptr;
}

const InstrForm *MachineModel::findAsmKey(std::string_view key) const {
  auto it = std::lower_bound(
      byAsmKey.begin(), byAsmKey.end(), key,
      [&](uint32_t i, std::string_view k) { return forms[i].asmKey < k; });
  if (it != byAsmKey.end() && forms[*it].asmKey == key)
    return &forms[*it];
  return nullptr;
}

std::string MachineModel::portSetName(PortMask m) const {
  std::string s;
  for (size_t i = 0; i < ports.size() && i < 64; ++i) {
    if (!(m >> i & 1))
      continue;
    if (!s.empty())
      s += '+';
    s += ports[i].name;
  }
  return s.empty() ? std::string("none") : s;
}

std::string_view MachineModel::Storage::intern(std::string s) {
  strings.push_back(std::make_unique<std::string>(std::move(s)));
  return *strings.back();
}

void MachineModel::finalizeStorage() {
  if (!storage)
    return;
  auto &fs = storage->forms;
  std::stable_sort(fs.begin(), fs.end(),
                   [](const InstrForm &a, const InstrForm &b) {
                     if (a.opcode.empty() != b.opcode.empty())
                       return b.opcode.empty();
                     return a.opcode < b.opcode;
                   });
  auto &idx = storage->byAsmKey;
  idx.resize(fs.size());
  std::iota(idx.begin(), idx.end(), 0u);
  std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) {
    return fs[a].asmKey < fs[b].asmKey;
  });
  forms = fs;
  byAsmKey = idx;
  resources = storage->resources;
}

void MachineModel::adoptPackedForms(const char *strings,
                                    std::span<const PackedForm> rows) {
  if (!storage)
    storage = std::make_shared<Storage>();
  auto &fs = storage->forms;
  fs.clear();
  fs.reserve(rows.size());
  for (const PackedForm &r : rows) {
    InstrForm f;
    f.opcode = std::string_view(strings + r.opcodeOffset, r.opcodeLength);
    f.asmKey = std::string_view(strings + r.asmKeyOffset, r.asmKeyLength);
    f.uops = r.uops;
    f.latency = r.latency;
    f.rthroughput = r.rthroughput;
    f.resBegin = r.resBegin;
    f.resCount = r.resCount;
    f.flags = r.flags;
    f.source = r.source;
    fs.push_back(f);
  }
  forms = fs;
}

bool isGenericX86Cpu(std::string_view cpu) {
  return cpu.empty() || cpu == "generic" || cpu == "intel" ||
         cpu.substr(0, 6) == "x86-64" || cpu == "i386" || cpu == "i486" ||
         cpu == "i586" || cpu == "i686";
}

} // namespace loopperf
