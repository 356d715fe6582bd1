// AnalyzeResolve.cpp - match instructions to model forms.
#include "AnalyzeResolve.h"

#include "loopperf/Isa.h"

#include <fmt/format.h>

#include <algorithm>

namespace loopperf::detail {

PortMask unknownInstructionPorts(const MachineModel &m) {
  PortMask all =
      m.ports.size() >= 64 ? ~PortMask(0) : (PortMask(1) << m.ports.size()) - 1;
  PortMask compute = all & ~(m.loadPorts | m.storePorts);
  if (m.dividerPort >= 0)
    compute &= ~(PortMask(1) << m.dividerPort);
  return compute ? compute : all;
}

const InstrForm *registerFormOf(const Instruction &in, const MachineModel &m) {
  const std::string &op = in.llvmOpcode;
  if (op.size() > 2 && op.compare(op.size() - 2, 2, "rm") == 0)
    if (const InstrForm *f = m.findOpcode(op.substr(0, op.size() - 2) + "rr"))
      return f;
  const std::string &key = in.formKey;
  size_t mem = key.find("mem");
  size_t lastComma = key.rfind(',');
  if (mem == std::string::npos || lastComma == std::string::npos ||
      lastComma < mem)
    return nullptr;
  std::string dest = key.substr(lastComma + 1);
  if (dest == "mem")
    return nullptr;
  return m.findAsmKey(key.substr(0, mem) + dest + key.substr(mem + 3));
}

std::vector<ResolvedInst> resolveKernel(const LoopKernel &k,
                                        const MachineModel &m,
                                        std::vector<std::string> &notes) {
  const IsaTraits &isa = kernelIsa(k, m.isa);
  std::vector<ResolvedInst> out(k.insts.size());
  for (size_t i = 0; i < k.insts.size(); ++i) {
    const Instruction &in = k.insts[i];
    ResolvedInst &r = out[i];
    for (const MemRef &mr : in.mem) {
      r.loads |= mr.isLoad;
      r.stores |= mr.isStore;
      r.indexedMem |= !mr.index.empty();
    }
    const InstrForm *f = in.unknown ? nullptr : m.findOpcode(in.llvmOpcode);
    if (!f && !in.unknown && !in.formKey.empty())
      f = m.findAsmKey(in.formKey);
    if (f && (f->flags & FormUnsupported)) {
      notes.push_back(fmt::format(
          "'{}' is not supported on {}; charged as unknown", in.text, m.name));
      f = nullptr;
    }
    r.breaksDeps = in.isZeroIdiom;
    r.usesDivider = isa.isDivide(in);
    if (!f) {
      r.unknown = true;
      r.uops = 1;
      r.latency = UnknownLatency;
      r.uses = {ResourceUse{unknownInstructionPorts(m), 1.0f}};
      continue;
    }
    r.form = f;
    if (f->flags & FormDivider)
      r.usesDivider = true;
    if (m.dividerPort >= 0)
      for (const ResourceUse &u : m.resourcesOf(*f))
        r.usesDivider |= (u.ports >> m.dividerPort & 1) != 0;
    r.loads |= (f->flags & FormMayLoad) != 0 && in.mem.empty();
    r.stores |= (f->flags & FormMayStore) != 0 && in.mem.empty();
    r.uops = f->uops;
    r.latency = f->latency;
    // An lea: the front end counted its address's parts, or handed its
    // address as a MemRef that is no access.
    if (m.rules.fastLea &&
        (in.leaAddressParts >= 0 ||
         (in.mem.size() == 1 && !in.mem[0].isLoad && !in.mem[0].isStore))) {
      int parts = in.leaAddressParts;
      if (parts < 0) {
        const MemRef &a = in.mem[0];
        parts = !a.base.empty() + !a.index.empty() +
                (a.disp != 0 || !a.symbol.empty());
      }
      if (parts >= 0 && parts <= 2) {
        r.latency = std::min(r.latency, 1.0);
        r.uops = 1;
      }
    }
    if (r.loads)
      if (const InstrForm *rf = registerFormOf(in, m);
          rf && rf->latency <= f->latency)
        r.registerFormLatency = rf->latency;
    bool renamerOnly = (in.isZeroIdiom && m.rules.zeroIdioms) ||
                       (in.isRegMove && m.rules.moveElimination);
    if (renamerOnly) {
      r.noPorts = true;
      r.latency = 0;
    } else {
      auto uses = m.resourcesOf(*f);
      r.uses.assign(uses.begin(), uses.end());
    }
  }
  return out;
}

} // namespace loopperf::detail
