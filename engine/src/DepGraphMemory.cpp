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
// store's [off_store, + width) and whether they lie inside them. Register
// values come from the front end's typed facts (Instruction::update, 64-bit
// writes only); any other write makes the register opaque, which can only
// lose edges, never invent them.
#include "DepGraph.h"

#include <algorithm>
#include <climits>
#include <map>
#include <tuple>

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

class AddressTracker {
public:
  explicit AddressTracker(const IsaTraits &isa) : isa_(isa) {}

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
    // The GPRs written, each once (a scratch buffer kept across steps).
    written_.clear();
    for (RegUnit u : in.writes) {
      if (!isa_.isGprUnit(u))
        continue;
      const std::string *reg = &isa_.unitRegister(u);
      if (std::find_if(written_.begin(), written_.end(),
                       [&](const std::string *w) { return *w == *reg; }) ==
          written_.end())
        written_.push_back(reg);
    }
    if (written_.empty())
      return; // no address register changes (vector and flag-only code)
    std::optional<std::pair<std::string, SymValue>> known = constantEffect(in);
    for (const std::string *w : written_) {
      const std::string &reg = *w;
      if (known && known->first == reg)
        current_[reg] = known->second;
      else
        current_[reg] = {-static_cast<int>(i) - 1, 0};
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
    auto [it, inserted] =
        roots_.emplace(reg, static_cast<int>(roots_.size()) + 1);
    return it->second;
  }

  /// The register `in` sets to a known value: a 64-bit constant update
  /// (add/sub $c, %r; inc/dec %r; lea c(%b), %r; mov %s, %r; mov $c, %r).
  /// A narrower write is opaque.
  std::optional<std::pair<std::string, SymValue>>
  constantEffect(const Instruction &in) {
    if (!in.update || in.update->widthBits != 64)
      return std::nullopt;
    const ConstantUpdate &u = *in.update;
    SymValue v = u.from.empty() ? SymValue{0, 0} : value(u.from);
    v.off += u.delta;
    return std::pair{u.reg, v};
  }

  const IsaTraits &isa_;
  std::vector<const std::string *> written_;
  std::map<std::string, int> roots_;
  std::map<std::string, SymValue> current_;
};

struct Access {
  unsigned inst;
  Address addr;
  unsigned width;
  const MemRef *ref;
};

/// For each 64-bit GPR name, the instructions that write it, in program
/// order: the memory-renaming condition asks whether the base register is
/// written between a store and a load, a binary search here.
using RegisterWriters =
    std::map<std::string, std::vector<unsigned>, std::less<>>;

RegisterWriters registerWriters(const LoopKernel &k, const IsaTraits &isa) {
  RegisterWriters out;
  for (unsigned i = 0; i < k.insts.size(); ++i)
    for (RegUnit u : k.insts[i].writes)
      if (isa.isGprUnit(u)) {
        std::vector<unsigned> &w = out[isa.unitRegister(u)];
        if (w.empty() || w.back() != i)
          w.push_back(i);
      }
  return out;
}

/// Some instruction in the open interval (after, before) writes `reg`.
bool writtenBetween(const std::vector<unsigned> &writers, unsigned after,
                    unsigned before) {
  auto it = std::upper_bound(writers.begin(), writers.end(), after);
  return it != writers.end() && *it < before;
}

/// Rule memoryRenaming's condition: 8-byte GPR store and load written
/// alike (same base register, no index or symbol, same displacement) with
/// the base register not written after the store and before the load. The
/// stored data is a GPR's (movq %rax,(%rdi)) or the instruction's own
/// result (addq $1,(%rdi)); an immediate store was not measured.
bool sameAddressText64(const LoopKernel &k, const Access &st, const Access &ld,
                       unsigned distance, const IsaTraits &isa,
                       std::optional<RegisterWriters> &writers) {
  const MemRef &s = *st.ref, &l = *ld.ref;
  if (st.width != 8 || ld.width != 8 || s.base.empty() || s.base != l.base ||
      !s.index.empty() || !l.index.empty() || !s.symbol.empty() ||
      !l.symbol.empty() || s.disp != l.disp)
    return false;
  const Instruction &store = k.insts[st.inst];
  if (touchesVector(store, isa) || touchesVector(k.insts[ld.inst], isa))
    return false;
  bool readModifyWrite =
      std::any_of(store.mem.begin(), store.mem.end(),
                  [](const MemRef &m) { return m.isLoad && m.isStore; });
  bool gprData =
      std::any_of(store.reads.begin(), store.reads.end(), isa.isGprUnit);
  if (!readModifyWrite && !gprData)
    return false;
  if (!writers) // built on first use: most bodies never get here
    writers = registerWriters(k, isa);
  auto it = writers->find(s.base);
  if (it == writers->end())
    return true;
  const std::vector<unsigned> &w = it->second;
  if (distance == 0)
    return !writtenBetween(w, st.inst, ld.inst);
  if (distance ==
      1) // after the store in its iteration, or before the load in the next
    return !writtenBetween(w, st.inst, UINT_MAX) &&
           (w.empty() || w.front() >= ld.inst);
  return w.empty();
}

/// The stores of one address group (same base and index roots, scale and
/// symbol), sorted by offset, then instruction, then input order; all of
/// them, or (matching by overlap) those of known width without a vector
/// index, or the others.
struct StoreIndex {
  struct Entry {
    int64_t off;
    unsigned inst, seq, width;
  };
  std::vector<Entry> entries;
  int64_t minOff = 0, maxOff = 0;
  unsigned maxWidth = 0;

  void add(const Access &a, unsigned seq) {
    entries.push_back({a.addr.off, a.inst, seq, a.width});
  }
  void finish() {
    std::sort(entries.begin(), entries.end(),
              [](const Entry &a, const Entry &b) {
                return std::tie(a.off, a.inst, a.seq) <
                       std::tie(b.off, b.inst, b.seq);
              });
    if (entries.empty())
      return;
    minOff = entries.front().off, maxOff = entries.back().off;
    for (const Entry &e : entries)
      maxWidth = std::max(maxWidth, e.width);
  }
  /// Entries with offset in [lo, hi].
  std::pair<size_t, size_t> range(int64_t lo, int64_t hi) const {
    auto cmpLo = [](const Entry &e, int64_t v) { return e.off < v; };
    auto cmpHi = [](int64_t v, const Entry &e) { return v < e.off; };
    size_t a = std::lower_bound(entries.begin(), entries.end(), lo, cmpLo) -
               entries.begin();
    size_t b = std::upper_bound(entries.begin() + a, entries.end(), hi, cmpHi) -
               entries.begin();
    return {a, b};
  }
};

/// The best store found so far for one load: the fewest iterations back,
/// then the latest store in the body, then the first in input order (the
/// nearest store in execution order, which is the one the load reads).
struct Candidate {
  const StoreIndex::Entry *store = nullptr;
  unsigned distance = 0;
  bool contained = true;

  void offer(const StoreIndex::Entry &e, unsigned k, bool inside) {
    if (!store || k < distance ||
        (k == distance && (e.inst > store->inst ||
                           (e.inst == store->inst && e.seq < store->seq))))
      *this = {&e, k, inside};
  }
};

/// How a load is matched against one index: the same address (at least as
/// wide when both widths are known), or overlapping bytes.
enum class MatchKind { SameAddress, Overlap };

/// Offers every store of `index` that the load of iteration i + k reads
/// from iteration i's store, where the load's address is `target` in
/// iteration i's terms. k = 0 admits only stores earlier in the body.
void offerAt(const StoreIndex &index, MatchKind kind, const Access &ld,
             int64_t target, unsigned k, Candidate &best) {
  const int64_t wl = ld.width;
  const auto [a, b] =
      kind == MatchKind::SameAddress
          ? index.range(target, target)
          : index.range(target - index.maxWidth + 1, target + wl - 1);
  // Latest instruction first within each offset; every offset is visited
  // (overlapping windows hold a handful of offsets).
  for (size_t i = b; i-- > a;) {
    const StoreIndex::Entry &e = index.entries[i];
    if (k == 0 && e.inst >= ld.inst)
      continue;
    if (kind == MatchKind::SameAddress) {
      if (e.width && ld.width && ld.width > e.width)
        continue; // a wider load cannot forward from this store
      best.offer(e, k, true);
    } else {
      const int64_t ws = e.width;
      if (!(e.off - wl < target && target < e.off + ws))
        continue;
      best.offer(e, k, target >= e.off && target + wl <= e.off + ws);
    }
  }
}

/// The range of k >= 1 for which the load's window at target = off + k * s
/// can meet the index's offsets, clamped to MaxForwardDistance.
std::pair<int64_t, int64_t> distanceRange(const StoreIndex &index,
                                          MatchKind kind, const Access &ld,
                                          int64_t stride) {
  const int64_t below = kind == MatchKind::SameAddress ? 0 : ld.width - 1;
  const int64_t above =
      kind == MatchKind::SameAddress ? 0 : int64_t(index.maxWidth) - 1;
  // target must lie in [minOff - below, maxOff + above].
  int64_t lo = index.minOff - below - ld.addr.off,
          hi = index.maxOff + above - ld.addr.off;
  if (stride < 0) {
    std::swap(lo, hi);
    lo = -lo, hi = -hi, stride = -stride;
  }
  const int64_t kLo =
      std::max<int64_t>(1, lo > 0 ? (lo + stride - 1) / stride : 1);
  const int64_t kHi =
      std::min<int64_t>(MaxForwardDistance, hi >= 0 ? hi / stride : 0);
  return {kLo, kHi};
}

} // namespace

std::vector<ForwardingPair>
findStoreForwarding(const LoopKernel &k, const IsaTraits &isa, bool byOverlap) {
  AddressTracker tracker(isa);
  std::vector<Access> stores, loads;
  for (unsigned i = 0; i < k.insts.size(); ++i) {
    const Instruction &in = k.insts[i];
    for (const MemRef &m : in.mem) {
      if (!m.isLoad && !m.isStore)
        continue; // address arithmetic (an lea's operand), no access
      Access acc{i, tracker.address(m), m.widthBytes, &m};
      if (m.isLoad)
        loads.push_back(acc);
      if (m.isStore)
        stores.push_back(acc);
    }
    tracker.step(in, i);
  }
  if (stores.empty() || loads.empty())
    return {};

  // Only accesses with the same base and index roots, scale and symbol can
  // meet: one group of stores per such key, each split by how it is matched.
  using GroupKey = std::tuple<int, int, int64_t, std::string>;
  auto keyOf = [](const Address &a) {
    return GroupKey{a.base, a.index, a.scale, a.symbol};
  };
  auto overlapCapable = [&](const Access &a) {
    return byOverlap && a.width && !hasVectorIndex(*a.ref, isa);
  };
  struct Group {
    StoreIndex sameAddress; ///< every store, or (by overlap) those that are not
                            ///< overlapCapable
    StoreIndex overlap;     ///< by overlap: the overlapCapable stores
  };
  std::map<GroupKey, Group> groups;
  for (unsigned s = 0; s < stores.size(); ++s) {
    Group &g = groups[keyOf(stores[s].addr)];
    (overlapCapable(stores[s]) ? g.overlap : g.sameAddress).add(stores[s], s);
  }
  for (auto &[key, g] : groups) {
    g.sameAddress.finish();
    g.overlap.finish();
  }

  std::optional<RegisterWriters> writers;
  std::vector<ForwardingPair> pairs;
  for (const Access &ld : loads) {
    auto it = groups.find(keyOf(ld.addr));
    if (it == groups.end())
      continue;
    const Group &g = it->second;
    // A load that cannot be matched by overlap is matched by address
    // against every store of the group.
    const bool byBytes = overlapCapable(ld);
    const std::pair<const StoreIndex *, MatchKind> indexes[] = {
        {&g.sameAddress, MatchKind::SameAddress},
        {&g.overlap, byBytes ? MatchKind::Overlap : MatchKind::SameAddress}};

    Candidate best;
    for (const auto &[index, kind] : indexes)
      if (!index->entries.empty())
        offerAt(*index, kind, ld, ld.addr.off, 0, best);
    if (!best.store) {
      // Earlier iterations: the load of iteration i + k at off + k * stride.
      const std::optional<int64_t> sb = tracker.stride(ld.addr.base),
                                   si = tracker.stride(ld.addr.index);
      if (sb && si) {
        const int64_t stride = *sb + ld.addr.scale * *si;
        if (stride == 0) {
          for (const auto &[index, kind] : indexes)
            if (!index->entries.empty())
              offerAt(*index, kind, ld, ld.addr.off, 1, best);
        } else {
          int64_t kLo = MaxForwardDistance + 1, kHi = 0;
          for (const auto &[index, kind] : indexes)
            if (!index->entries.empty()) {
              auto [lo, hi] = distanceRange(*index, kind, ld, stride);
              kLo = std::min(kLo, lo), kHi = std::max(kHi, hi);
            }
          for (int64_t d = kLo; d <= kHi && !best.store; ++d)
            for (const auto &[index, kind] : indexes)
              if (!index->entries.empty())
                offerAt(*index, kind, ld, ld.addr.off + d * stride,
                        static_cast<unsigned>(d), best);
        }
      }
    }
    if (!best.store)
      continue;
    const Access &st = stores[best.store->seq];
    ForwardingPair p{st.inst, ld.inst, best.distance};
    p.contained = best.contained;
    p.maskedStore = k.insts[st.inst].formKey.find("{k}") != std::string::npos;
    p.sameAddressText64 =
        sameAddressText64(k, st, ld, best.distance, isa, writers);
    p.storeBytes = st.width;
    pairs.push_back(p);
  }
  return pairs;
}

} // namespace loopperf::detail
