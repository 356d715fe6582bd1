// TestModel.h - tiny hand-made machine models and loop kernels for the
// analysis unit tests, so that every expected number can be derived by hand.
#pragma once

#include "loopperf/Isa.h"
#include "loopperf/Kernel.h"
#include "loopperf/MachineModel.h"
#include "loopperf/X86.h"

#include <cctype>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace loopperf::test {

/// Builds a MachineModel through MachineModel::Storage. Port sets are given
/// as "P0+P1" strings of the model's port names.
class ModelBuilder {
public:
  explicit ModelBuilder(std::vector<std::string> portNames) {
    m_.name = "testcore";
    m_.isa = "x86-64";
    for (auto &n : portNames)
      m_.ports.push_back({n});
    m_.sources.push_back({"hand", "unit test, numbers chosen by hand"});
    m_.storage = std::make_shared<MachineModel::Storage>();
    // Defaults every test may override.
    m_.pipeline.dispatchWidth.value = 4;
    m_.pipeline.loadLatency.value = 4;
    m_.pipeline.vecLoadLatency.value = 5;
    m_.pipeline.storeForwardLatency.value = 6;
  }
  MachineModel &model() { return m_; }

  PortMask mask(const std::string &set) const {
    PortMask r = 0;
    size_t start = 0;
    while (start <= set.size()) {
      size_t end = set.find('+', start);
      std::string name = set.substr(
          start, end == std::string::npos ? std::string::npos : end - start);
      for (size_t i = 0; i < m_.ports.size(); ++i)
        if (m_.ports[i].name == name)
          r |= PortMask(1) << i;
      if (end == std::string::npos)
        break;
      start = end + 1;
    }
    return r;
  }

  /// One form: assembler key, unfused uops, latency, (port set, cycles) uses.
  ModelBuilder &form(const std::string &key, unsigned uops, unsigned latency,
                     std::vector<std::pair<std::string, float>> uses,
                     uint16_t flags = 0) {
    auto &s = *m_.storage;
    InstrForm f;
    f.asmKey = s.intern(key);
    f.uops = static_cast<uint16_t>(uops);
    f.latency = static_cast<uint16_t>(latency);
    f.resBegin = static_cast<uint32_t>(s.resources.size());
    for (auto &[set, cycles] : uses)
      s.resources.push_back({mask(set), cycles});
    f.resCount = static_cast<uint16_t>(uses.size());
    f.flags = flags;
    s.forms.push_back(f);
    return *this;
  }

  MachineModel build() {
    m_.finalizeStorage();
    return m_;
  }

private:
  MachineModel m_;
};

/// Builds a LoopKernel from AT&T lines, filling reads/writes the way a front
/// end does: the last operand is the destination; two-operand arithmetic
/// reads it too; VEX three-operand forms do not (FMA does); moves, lea and
/// setcc only write; cmp/test only read. Flags come from x86::flagEffects.
class KernelBuilder {
public:
  KernelBuilder &add(const std::string &text) {
    Instruction in;
    in.text = text;
    in.asmLine = static_cast<unsigned>(k_.insts.size() + 1);
    size_t sp = text.find(' ');
    in.mnemonic = text.substr(0, sp);
    std::vector<std::string> ops = sp == std::string::npos
                                       ? std::vector<std::string>{}
                                       : splitOperands(text.substr(sp + 1));
    const std::string &m = in.mnemonic;
    bool vex = m[0] == 'v';
    bool isMove = m.rfind("mov", 0) == 0 || m.rfind("vmov", 0) == 0 ||
                  m.rfind("lea", 0) == 0 || m.rfind("set", 0) == 0 ||
                  m.rfind("vbroadcast", 0) == 0;
    bool compareOnly = m.rfind("cmp", 0) == 0 || m.rfind("test", 0) == 0;
    bool fma = m.rfind("vfmadd", 0) == 0 || m.rfind("vfnmadd", 0) == 0;
    bool isDiv = m.rfind("div", 0) == 0 || m.rfind("idiv", 0) == 0;
    in.isBranch = m[0] == 'j';
    in.isConditional = in.isBranch && m != "jmp";

    std::string key = m;
    std::vector<std::string> regSources;
    for (size_t i = 0; i < ops.size(); ++i) {
      const std::string &op = ops[i];
      bool dest = i + 1 == ops.size() && ops.size() > 1 && !compareOnly;
      if (ops.size() == 1 && !in.isBranch && !isDiv)
        dest = true; // inc, dec, neg, not
      std::string cls = operandClassOf(op);
      key += (i ? "," : " ") + cls;
      if (cls == "mem") {
        MemRef mr = parseMem(op);
        bool readsDest = !isMove && (ops.size() == 2 || fma);
        mr.isStore = dest && m.rfind("lea", 0) != 0;
        mr.isLoad = (!dest || readsDest) && m.rfind("lea", 0) != 0;
        for (const std::string &r : {mr.base, mr.index})
          if (!r.empty())
            append(in.addrReads, x86::lookupRegister(r).units);
        in.mem.push_back(mr);
        continue;
      }
      x86::RegInfo reg = x86::lookupRegister(op);
      if (!reg.valid)
        continue;
      if (dest) {
        std::vector<RegUnit> merge;
        x86::writeUnits(reg, vex, in.writes, merge);
        append(in.reads, merge);
        bool readsDest = !isMove && (ops.size() <= 2 || fma);
        if (readsDest)
          append(in.reads, reg.units);
      } else {
        append(in.reads, reg.units);
        regSources.push_back(reg.canonical);
      }
    }
    if (isDiv) { // rdx:rax / op -> rax, rdx
      for (const char *r : {"rax", "rdx"}) {
        x86::RegInfo reg = x86::lookupRegister(r);
        append(in.reads, reg.units);
        append(in.writes, reg.units);
      }
    }
    x86::FlagEffect fe = x86::flagEffects(m);
    for (unsigned f = 0; f < x86::NumFlags; ++f) {
      if (fe.reads >> f & 1)
        in.reads.push_back(x86::flagUnit(static_cast<x86::Flag>(f)));
      if (fe.writes >> f & 1)
        in.writes.push_back(x86::flagUnit(static_cast<x86::Flag>(f)));
    }
    // Zero idiom: all register operands name the same register.
    if (x86::isZeroIdiomMnemonic(m) && in.mem.empty() && ops.size() >= 2) {
      bool same = true;
      for (auto &op : ops)
        same &= x86::lookupRegister(op).canonical ==
                x86::lookupRegister(ops[0]).canonical;
      in.isZeroIdiom = same;
    }
    in.isRegMove = x86::isEliminableMoveMnemonic(m) && in.mem.empty() &&
                   ops.size() == 2 && operandClassOf(ops[0]) != "imm";
    in.formKey = key;
    in.update = constantUpdate(m, ops, in.mem);
    k_.insts.push_back(std::move(in));
    return *this;
  }

  KernelBuilder &elements(unsigned n) {
    k_.elementsPerIteration = n;
    return *this;
  }
  LoopKernel build(std::string name = "test") {
    k_.isa = &x86Isa();
    k_.name = std::move(name);
    return k_;
  }

  static std::string operandClassOf(const std::string &op) {
    if (op.empty())
      return "";
    if (op[0] == '$')
      return "imm";
    if (op.find('(') != std::string::npos)
      return "mem";
    if (op[0] != '%')
      return "label";
    x86::RegInfo r = x86::lookupRegister(op);
    if (r.isVector)
      return r.widthBits == 128 ? "xmm" : r.widthBits == 256 ? "ymm" : "zmm";
    if (r.isMask)
      return "k";
    return "r" + std::to_string(r.widthBits);
  }

private:
  /// What a front end reads off its IR as Instruction::update: add/sub $c,
  /// %r; inc/dec %r; lea c(%b), %r; mov $c, %r; mov %s, %r.
  static std::optional<ConstantUpdate>
  constantUpdate(std::string m, const std::vector<std::string> &ops,
                 const std::vector<MemRef> &mem) {
    if (m.size() > 3 && std::string("bwlq").find(m.back()) != std::string::npos)
      m.pop_back();
    if (ops.empty())
      return std::nullopt;
    x86::RegInfo dst = x86::lookupRegister(ops.back());
    if (!dst.valid || !dst.isGpr)
      return std::nullopt;
    ConstantUpdate u{dst.canonical, dst.canonical, 0, dst.widthBits};
    auto imm = [](const std::string &op) -> std::optional<int64_t> {
      if (op.empty() || op[0] != '$')
        return std::nullopt;
      return std::stoll(op.substr(1), nullptr, 0);
    };
    if ((m == "add" || m == "sub") && ops.size() == 2 && imm(ops[0])) {
      u.delta = m == "add" ? *imm(ops[0]) : -*imm(ops[0]);
      return u;
    }
    if ((m == "inc" || m == "dec") && ops.size() == 1) {
      u.delta = m == "inc" ? 1 : -1;
      return u;
    }
    if (m == "lea" && ops.size() == 2 && mem.size() == 1 &&
        mem[0].index.empty() && mem[0].symbol.empty()) {
      u.from = mem[0].base;
      u.delta = mem[0].disp;
      return u;
    }
    if (m == "mov" && ops.size() == 2 && mem.empty()) {
      if (auto c = imm(ops[0])) {
        u.from.clear();
        u.delta = *c;
        return u;
      }
      x86::RegInfo src = x86::lookupRegister(ops[0]);
      if (src.valid && src.isGpr && src.widthBits == dst.widthBits) {
        u.from = src.canonical;
        return u;
      }
    }
    return std::nullopt;
  }

  static void append(std::vector<RegUnit> &to,
                     const std::vector<RegUnit> &from) {
    to.insert(to.end(), from.begin(), from.end());
  }

  static std::vector<std::string> splitOperands(const std::string &s) {
    std::vector<std::string> out;
    int depth = 0;
    std::string cur;
    for (char c : s) {
      if (c == ',' && depth == 0) {
        out.push_back(trim(cur));
        cur.clear();
        continue;
      }
      depth += c == '(' ? 1 : c == ')' ? -1 : 0;
      cur += c;
    }
    if (!trim(cur).empty())
      out.push_back(trim(cur));
    return out;
  }

  static std::string trim(const std::string &s) {
    size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
  }

  /// "disp(%base,%index,scale)".
  static MemRef parseMem(const std::string &op) {
    MemRef m;
    size_t open = op.find('(');
    std::string disp = op.substr(0, open);
    m.disp = disp.empty() ? 0 : std::stoll(disp, nullptr, 0);
    std::string inside = op.substr(open + 1, op.find(')') - open - 1);
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
      size_t c = inside.find(',', start);
      parts.push_back(trim(inside.substr(
          start, c == std::string::npos ? std::string::npos : c - start)));
      if (c == std::string::npos)
        break;
      start = c + 1;
    }
    if (!parts[0].empty())
      m.base = x86::lookupRegister(parts[0]).canonical;
    if (parts.size() > 1 && !parts[1].empty())
      m.index = x86::lookupRegister(parts[1]).canonical;
    if (parts.size() > 2)
      m.scale = std::stoi(parts[2]);
    return m;
  }

  LoopKernel k_;
};

} // namespace loopperf::test
