// ModelCheck.cpp - internal-consistency checks of a machine model.
#include "loopperf/ModelCheck.h"
#include "loopperf/X86.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace loopperf {

double portBound(std::span<const ResourceUse> uses) {
  // The bound max_S load(S)/|S| is attained at a union of the demands' own
  // port sets, so enumerate unions of the distinct masks (few per form).
  std::vector<std::pair<PortMask, double>> masks;
  for (const ResourceUse &u : uses) {
    auto it = std::find_if(masks.begin(), masks.end(),
                           [&](auto &p) { return p.first == u.ports; });
    if (it == masks.end())
      masks.push_back({u.ports, u.cycles});
    else
      it->second += u.cycles;
  }
  if (masks.size() > 16) // not a realistic form; keep the check cheap
    masks.resize(16);
  double best = 0;
  for (uint32_t sel = 1; sel < (1u << masks.size()); ++sel) {
    PortMask s = 0;
    for (size_t i = 0; i < masks.size(); ++i)
      if (sel >> i & 1)
        s |= masks[i].first;
    double load = 0;
    for (auto &[m, c] : masks)
      if ((m & ~s) == 0)
        load += c;
    if (s)
      best = std::max(best, load / std::popcount(s));
  }
  return best;
}

namespace {

bool sameNumbers(const MachineModel &m, const InstrForm &a,
                 const InstrForm &b) {
  if (a.uops != b.uops || a.latency != b.latency ||
      a.rthroughput != b.rthroughput || a.resCount != b.resCount ||
      (a.flags & FormUnsupported) != (b.flags & FormUnsupported))
    return false;
  auto ra = m.resourcesOf(a), rb = m.resourcesOf(b);
  for (size_t i = 0; i < ra.size(); ++i)
    if (ra[i].ports != rb[i].ports || ra[i].cycles != rb[i].cycles)
      return false;
  return true;
}

/// Destination operand class of a key: AT&T puts it last, AArch64 first.
std::string_view destinationClass(const MachineModel &m, std::string_view key) {
  size_t sp = key.find(' ');
  if (sp == std::string_view::npos)
    return {};
  std::string_view ops = key.substr(sp + 1);
  if (m.isa == "aarch64")
    return ops.substr(0, ops.find(','));
  size_t comma = ops.rfind(',');
  return comma == std::string_view::npos ? ops : ops.substr(comma + 1);
}

bool isRegisterClass(std::string_view c) {
  c = c.substr(0, c.find('{'));
  return !c.empty() && c != "imm" && c != "mem" && c != "mem!" &&
         c != "label" && c != "rc" && c != "sae" && c != "sysreg" &&
         c != "cond" && c != "shift" && c != "ext";
}

/// A register-to-register move of one class that the model's rule
/// `moveElimination` executes at rename: latency 0 is right for it.
/// Masked moves merge into their destination and are not such moves.
/// Also exchanges and movslq r32,r32 (movsxd), which AMD's guides list as
/// zero-cycle moves, and register NOPs, which write nothing.
bool eliminatedMove(const MachineModel &m, std::string_view key) {
  if (m.isa != "x86-64" || key.find('{') != std::string_view::npos)
    return false;
  size_t sp = key.find(' ');
  if (sp == std::string_view::npos)
    return false;
  std::string_view mn = key.substr(0, sp);
  if (mn.substr(0, 3) == "nop")
    return true;
  if (!m.rules.moveElimination)
    return false;
  if (!x86::isEliminableMoveMnemonic(mn) && mn != "xchgl" && mn != "xchgq" &&
      mn != "movslq")
    return false;
  std::string_view ops = key.substr(sp + 1);
  size_t comma = ops.find(',');
  return comma != std::string_view::npos &&
         ops.substr(0, comma) == ops.substr(comma + 1) &&
         isRegisterClass(ops.substr(0, comma));
}

} // namespace

std::vector<ModelFinding> checkModel(const MachineModel &m) {
  std::vector<ModelFinding> out;
  auto add = [&](ModelFinding::Severity sev, std::string kind,
                 const InstrForm *f, std::string msg) {
    ModelFinding x;
    x.severity = sev;
    x.kind = std::move(kind);
    if (f) {
      x.opcode = std::string(f->opcode);
      x.asmKey = std::string(f->asmKey);
    }
    x.message = std::move(msg);
    out.push_back(std::move(x));
  };
  using Sev = ModelFinding::Severity;

  const PortMask valid =
      m.ports.size() >= 64 ? ~PortMask(0) : (PortMask(1) << m.ports.size()) - 1;
  if (m.dividerPort >= static_cast<int>(m.ports.size()))
    add(Sev::Error, "bad-port-mask", nullptr,
        fmt::format("divider port {} does not exist ({} ports)", m.dividerPort,
                    m.ports.size()));
  if (m.loadPorts & ~valid)
    add(Sev::Error, "bad-port-mask", nullptr,
        "load ports name a port that does not exist");
  if (m.storePorts & ~valid)
    add(Sev::Error, "bad-port-mask", nullptr,
        "store ports name a port that does not exist");

  PortMask used = 0;
  for (const InstrForm &f : m.forms) {
    if (f.resBegin + f.resCount > m.resources.size()) {
      add(Sev::Error, "bad-port-mask", &f,
          "resource list lies outside the resource table");
      continue;
    }
    auto res = m.resourcesOf(f);
    bool badMask = false;
    for (const ResourceUse &u : res) {
      used |= u.ports;
      badMask |= (u.ports & ~valid) != 0 || u.ports == 0;
    }
    if (badMask) {
      add(Sev::Error, "bad-port-mask", &f,
          "a resource demand names a port that does not exist");
      continue;
    }
    if (f.flags & FormUnsupported)
      continue;
    double bound = portBound(res);
    if (f.rthroughput + std::max(0.01, 0.01 * bound) < bound)
      add(Sev::Warning, "throughput-below-port-bound", &f,
          fmt::format("reciprocal throughput {:.3g} is below the port bound "
                      "{:.3g} of its "
                      "resources",
                      f.rthroughput, bound));
    if (f.latency == 0 && !(f.flags & (FormMayStore | FormBranch)) &&
        isRegisterClass(destinationClass(m, f.asmKey)) &&
        !eliminatedMove(m, f.asmKey))
      add(Sev::Warning, "zero-latency", &f,
          "writes a register but has latency 0");
  }
  for (size_t p = 0; p < m.ports.size() && p < 64; ++p)
    if (!(used >> p & 1))
      add(Sev::Warning, "unused-port", nullptr,
          fmt::format("port {} is used by no form", m.ports[p].name));

  // Duplicates: forms are sorted by opcode; byAsmKey groups keys.
  for (size_t i = 1; i < m.forms.size(); ++i) {
    const InstrForm &a = m.forms[i - 1], &b = m.forms[i];
    if (!a.opcode.empty() && a.opcode == b.opcode && a.asmKey == b.asmKey &&
        !sameNumbers(m, a, b))
      add(Sev::Error, "conflicting-duplicate", &b,
          fmt::format("opcode {} appears twice with different numbers",
                      b.opcode));
  }
  for (size_t i = 1; i < m.byAsmKey.size(); ++i) {
    const InstrForm &a = m.forms[m.byAsmKey[i - 1]],
                    &b = m.forms[m.byAsmKey[i]];
    if (a.asmKey.empty() || a.asmKey != b.asmKey || a.opcode == b.opcode ||
        ((a.flags | b.flags) & FormUnsupported) || sameNumbers(m, a, b))
      continue;
    add(Sev::Note, "conflicting-duplicate", &b,
        fmt::format("key '{}' is shared by {} and {} with different numbers; "
                    "lookups by key use {}",
                    b.asmKey, a.opcode, b.opcode,
                    m.forms[m.byAsmKey[i - 1]].opcode));
  }
  return out;
}

} // namespace loopperf
