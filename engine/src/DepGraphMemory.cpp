// DepGraphMemory.cpp - store-to-load forwarding by symbolic address
// arithmetic.
//
// Every GPR holds a symbolic value root + offset. Root 0 is the constant 0
// (so "mov $5, %rax" is {0, 5}), roots 1.. are the registers' values at the
// start of the iteration, negative roots are opaque values computed inside
// the iteration (comparable only within it). After one pass over the body
// a register whose final value is (its own root + c) advances by the stride
// c per iteration. A store in iteration i and a load in iteration i+k touch
// the same address iff they have the same roots and
//     off_store == off_load + k * stride,   k >= 0,
// with k = 0 only when the store comes first in the body. Matching by
// overlap (models that know what a failed forward costs) asks instead
// whether the load's bytes [off_load + k * stride, + width) meet the
// store's [off_store, + width) and whether they lie inside them. Only AT&T
// text is interpreted; anything else makes the written register opaque,
// which can only lose edges, never invent them.
#include "DepGraph.h"

#include "AsmText.h"

#include "loopperf/X86.h"

#include <algorithm>
#include <charconv>
#include <map>

namespace loopperf::detail {
namespace {

struct SymValue {
  int root = 0;
  int64_t off = 0;
};

struct Address {
  int base = 0, index = 0;
  int64_t scale = 0;
  int64_t off = 0;
  std::string symbol;
};

constexpr unsigned MaxForwardDistance = 1024;

std::optional<int64_t> parseInt(std::string_view s) {
  bool neg = !s.empty() && s.front() == '-';
  if (neg)
    s.remove_prefix(1);
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty())
    return std::nullopt;
  return neg ? -v : v;
}

std::optional<int64_t> immediate(std::string_view op) {
  if (op.empty() || op.front() != '$')
    return std::nullopt;
  return parseInt(op.substr(1));
}

/// Canonical name of a 64-bit GPR operand ("%rdi" -> "rdi"), or "".
std::string gpr64(std::string_view op) {
  if (op.empty() || op.front() != '%')
    return {};
  x86::RegInfo r = x86::lookupRegister(op);
  return r.valid && r.isGpr && r.widthBits == 64 ? r.canonical : std::string();
}

class AddressTracker {
public:
  explicit AddressTracker(const IsaRegisters &isa) : isa_(isa) {}

  SymValue value(const std::string &reg) {
    if (reg.empty() || reg == "rip")
      return {0, 0};
    auto it = current_.find(reg);
    if (it != current_.end())
      return it->second;
    return {rootOf(reg), 0};
  }

  Address address(const MemRef &m) {
    SymValue b = value(m.base), x = value(m.index);
    Address a;
    a.symbol = m.symbol;
    a.base = b.root;
    a.off = b.off + m.disp;
    if (!m.index.empty()) {
      a.index = x.root;
      a.scale = a.index ? m.scale : 0;
      a.off += static_cast<int64_t>(m.scale) * x.off;
    }
    return a;
  }

  /// Applies the register effects of instruction `i`.
  void step(const Instruction &in, unsigned i) {
    std::vector<const std::string *> written;
    for (RegUnit u : in.writes) {
      if (!isa_.isGprUnit(u))
        continue;
      const std::string *reg = &isa_.unitRegister(u);
      if (std::find_if(written.begin(), written.end(),
                       [&](const std::string *w) { return *w == *reg; }) == written.end())
        written.push_back(reg);
    }
    if (written.empty())
      return; // no address register changes (vector and flag-only code)
    std::optional<std::pair<std::string, SymValue>> known;
    if (isa_.attArithmetic)
      known = constantEffect(in);
    for (const std::string *reg : written) {
      if (known && known->first == *reg)
        current_[*reg] = known->second;
      else
        current_[*reg] = {-static_cast<int>(i) - 1, 0};
    }
  }

  /// Per-iteration stride of a root, if its register advances by a constant.
  std::optional<int64_t> stride(int root) {
    if (root == 0)
      return 0;
    if (root < 0)
      return std::nullopt;
    for (auto &[reg, id] : roots_)
      if (id == root) {
        SymValue v = value(reg);
        if (v.root == root)
          return v.off;
        return std::nullopt;
      }
    return std::nullopt;
  }

private:
  int rootOf(const std::string &reg) {
    auto [it, inserted] = roots_.emplace(reg, static_cast<int>(roots_.size()) + 1);
    return it->second;
  }

  /// add/sub $c, %r; inc/dec %r; lea c(%b), %r; mov %s, %r; mov $c, %r.
  std::optional<std::pair<std::string, SymValue>> constantEffect(const Instruction &in) {
    std::string m = in.mnemonic;
    if (m.size() > 3 && m.back() == 'q')
      m.pop_back();
    std::vector<std::string_view> ops = instructionOperands(in.attText.empty() ? in.text : in.attText);
    if ((m == "add" || m == "sub") && ops.size() == 2) {
      auto c = immediate(ops[0]);
      std::string r = gpr64(ops[1]);
      if (!c || r.empty())
        return std::nullopt;
      SymValue v = value(r);
      v.off += m == "add" ? *c : -*c;
      return std::pair{r, v};
    }
    if ((m == "inc" || m == "dec") && ops.size() == 1) {
      std::string r = gpr64(ops[0]);
      if (r.empty())
        return std::nullopt;
      SymValue v = value(r);
      v.off += m == "inc" ? 1 : -1;
      return std::pair{r, v};
    }
    if (m == "lea" && ops.size() == 2 && in.mem.size() == 1) {
      const MemRef &a = in.mem.front();
      std::string r = gpr64(ops[1]);
      if (r.empty() || !a.index.empty() || !a.symbol.empty())
        return std::nullopt;
      SymValue v = value(a.base);
      v.off += a.disp;
      return std::pair{r, v};
    }
    if (m == "mov" && ops.size() == 2 && in.mem.empty()) {
      std::string r = gpr64(ops[1]);
      if (r.empty())
        return std::nullopt;
      if (auto c = immediate(ops[0]))
        return std::pair{r, SymValue{0, *c}};
      std::string s = gpr64(ops[0]);
      if (!s.empty())
        return std::pair{r, value(s)};
    }
    return std::nullopt;
  }

  const IsaRegisters &isa_;
  std::map<std::string, int> roots_;
  std::map<std::string, SymValue> current_;
};

struct Access {
  unsigned inst;
  Address addr;
  unsigned width;
  const MemRef *ref;
};

/// Floor of a / b for b > 0.
int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

/// Iterations from the store to the load it feeds, if the addresses match.
std::optional<unsigned> aliasDistance(const Access &st, const Access &ld, AddressTracker &t) {
  const Address &a = st.addr, &b = ld.addr;
  if (a.base != b.base || a.index != b.index || a.scale != b.scale || a.symbol != b.symbol)
    return std::nullopt;
  if (st.width && ld.width && ld.width > st.width)
    return std::nullopt; // a wider load cannot forward from this store
  int64_t diff = a.off - b.off;
  bool storeFirst = st.inst < ld.inst;
  if (diff == 0 && storeFirst)
    return 0u;
  auto sb = t.stride(a.base), si = t.stride(a.index);
  if (!sb || !si)
    return std::nullopt;
  int64_t stride = *sb + a.scale * *si;
  if (stride == 0)
    return diff == 0 ? std::optional<unsigned>(1u) : std::nullopt;
  if (diff % stride != 0 || diff / stride <= 0 || diff / stride > MaxForwardDistance)
    return std::nullopt;
  return static_cast<unsigned>(diff / stride);
}

struct OverlapMatch {
  unsigned distance = 0;
  bool contained = false;
};

/// The nearest iteration distance at which the load's bytes overlap the
/// store's, and whether they lie inside them. Accesses of unknown width or
/// with a vector index use the same-address test (and count as contained).
std::optional<OverlapMatch> overlapDistance(const Access &st, const Access &ld, AddressTracker &t) {
  if (!st.width || !ld.width || hasVectorIndex(*st.ref) || hasVectorIndex(*ld.ref)) {
    auto d = aliasDistance(st, ld, t);
    return d ? std::optional<OverlapMatch>({*d, true}) : std::nullopt;
  }
  const Address &a = st.addr, &b = ld.addr;
  if (a.base != b.base || a.index != b.index || a.scale != b.scale || a.symbol != b.symbol)
    return std::nullopt;
  // The load of iteration i+k starts at b.off + k * stride in iteration i's
  // terms; it overlaps the store iff lo < k * stride < hi.
  const int64_t ws = st.width, wl = ld.width;
  const int64_t lo = a.off - b.off - wl, hi = a.off - b.off + ws;
  auto result = [&](unsigned k, int64_t stride) {
    int64_t start = b.off + static_cast<int64_t>(k) * stride;
    return OverlapMatch{k, start >= a.off && start + wl <= a.off + ws};
  };
  const unsigned k0 = st.inst < ld.inst ? 0 : 1;
  if (k0 == 0 && lo < 0 && 0 < hi)
    return result(0, 0);
  auto sb = t.stride(a.base), si = t.stride(a.index);
  if (!sb || !si)
    return std::nullopt;
  int64_t stride = *sb + a.scale * *si;
  if (stride == 0)
    return k0 == 1 && lo < 0 && 0 < hi ? std::optional<OverlapMatch>(result(1, 0)) : std::nullopt;
  // Smallest k >= k0 with k * |stride| inside the interval (mirrored for a
  // negative stride).
  int64_t step = stride > 0 ? stride : -stride;
  int64_t from = stride > 0 ? lo : -hi, to = stride > 0 ? hi : -lo;
  int64_t k = std::max<int64_t>(floorDiv(from, step) + 1, k0);
  if (k > MaxForwardDistance || k * step >= to)
    return std::nullopt;
  return result(static_cast<unsigned>(k), stride);
}

bool writesRegister(const Instruction &in, const std::string &reg, const IsaRegisters &isa) {
  return std::any_of(in.writes.begin(), in.writes.end(), [&](RegUnit u) {
    return isa.isGprUnit(u) && isa.unitRegister(u) == reg;
  });
}

/// Rule memoryRenaming's condition: 8-byte GPR store and load written
/// alike (same base register, no index or symbol, same displacement) with
/// the base register not written after the store and before the load. The
/// stored data is a GPR's (movq %rax,(%rdi)) or the instruction's own
/// result (addq $1,(%rdi)); an immediate store was not measured.
bool sameAddressText64(const LoopKernel &k, const Access &st, const Access &ld, unsigned distance,
                       const IsaRegisters &isa) {
  const MemRef &s = *st.ref, &l = *ld.ref;
  if (st.width != 8 || ld.width != 8 || s.base.empty() || s.base != l.base || !s.index.empty() ||
      !l.index.empty() || !s.symbol.empty() || !l.symbol.empty() || s.disp != l.disp)
    return false;
  const Instruction &store = k.insts[st.inst];
  if (touchesVector(store, isa) || touchesVector(k.insts[ld.inst], isa))
    return false;
  bool readModifyWrite = std::any_of(store.mem.begin(), store.mem.end(),
                                     [](const MemRef &m) { return m.isLoad && m.isStore; });
  bool gprData = std::any_of(store.reads.begin(), store.reads.end(), isa.isGprUnit);
  if (!readModifyWrite && !gprData)
    return false;
  size_t n = k.insts.size();
  for (size_t j = 0; j < n; ++j) {
    bool between = distance == 0   ? j > st.inst && j < ld.inst
                   : distance == 1 ? j > st.inst || j < ld.inst
                                   : true;
    if (between && writesRegister(k.insts[j], s.base, isa))
      return false;
  }
  return true;
}

} // namespace

std::vector<ForwardingPair> findStoreForwarding(const LoopKernel &k, const IsaRegisters &isa,
                                                bool byOverlap) {
  AddressTracker tracker(isa);
  std::vector<Access> stores, loads;
  for (unsigned i = 0; i < k.insts.size(); ++i) {
    const Instruction &in = k.insts[i];
    bool isLea = in.mnemonic.rfind("lea", 0) == 0;
    for (const MemRef &m : in.mem) {
      if (isLea)
        continue;
      Access acc{i, tracker.address(m), m.widthBytes, &m};
      if (m.isLoad)
        loads.push_back(acc);
      if (m.isStore)
        stores.push_back(acc);
    }
    tracker.step(in, i);
  }
  size_t n = k.insts.size();
  std::vector<ForwardingPair> pairs;
  for (const Access &ld : loads) {
    std::optional<ForwardingPair> best;
    const Access *bestStore = nullptr;
    long bestGap = 0;
    for (const Access &st : stores) {
      std::optional<OverlapMatch> d;
      if (byOverlap)
        d = overlapDistance(st, ld, tracker);
      else if (auto exact = aliasDistance(st, ld, tracker))
        d = OverlapMatch{*exact, true};
      if (!d)
        continue;
      // Instructions between the store and the load: the nearest store is
      // the one the load actually reads.
      long gap = static_cast<long>(d->distance * n) + static_cast<long>(ld.inst) -
                 static_cast<long>(st.inst);
      if (!best || gap < bestGap) {
        best = ForwardingPair{st.inst, ld.inst, d->distance};
        best->contained = d->contained;
        bestStore = &st;
        bestGap = gap;
      }
    }
    if (!best)
      continue;
    best->maskedStore = k.insts[best->store].formKey.find("{k}") != std::string::npos;
    best->sameAddressText64 = sameAddressText64(k, *bestStore, ld, best->distance, isa);
    best->storeBytes = bestStore->width;
    pairs.push_back(*best);
  }
  return pairs;
}

} // namespace loopperf::detail
