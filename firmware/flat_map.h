// A map from 64-bit keys to values in one flat array (open addressing), for the firmware's
// queues: no node per entry, no pointer chasing, and no allocation once it has reached its
// largest size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace drivevp {

/// Open addressing with linear probing over a power-of-two table kept at most half full (a
/// Fibonacci hash of the key picks the home slot); erase shifts the following entries of the
/// probe run back, so there are no tombstones. The table grows (doubles) and never shrinks: the
/// memory held follows the most entries ever present at once. No iteration: the queues that use
/// it keep their own orders, so nothing depends on where an entry lies.
template <class V>
class FlatMap {
 public:
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool contains(std::uint64_t key) const { return find(key) != nullptr; }

  /// The value of `key`, or null when absent.
  V* find(std::uint64_t key) { return const_cast<V*>(std::as_const(*this).find(key)); }
  const V* find(std::uint64_t key) const {
    if (size_ == 0) return nullptr;
    for (std::size_t i = home(key);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (!s.used) return nullptr;
      if (s.key == key) return &s.value;
    }
  }
  /// The value of `key`; throws std::out_of_range when absent.
  V& at(std::uint64_t key) { return const_cast<V&>(std::as_const(*this).at(key)); }
  const V& at(std::uint64_t key) const {
    const V* v = find(key);
    if (!v) throw std::out_of_range("FlatMap::at: key not present");
    return *v;
  }
  /// Adds `key` with `value`; false (nothing changed) when `key` is present.
  bool insert(std::uint64_t key, const V& value) {
    if (find(key)) return false;
    if (2 * (size_ + 1) > slots_.size()) grow();
    place(key, value);
    return true;
  }
  /// The value of `key`, added as V{} when absent.
  V& operator[](std::uint64_t key) {
    if (V* v = find(key)) return *v;
    if (2 * (size_ + 1) > slots_.size()) grow();
    return place(key, V{});
  }
  /// Removes `key`; false when absent.
  bool erase(std::uint64_t key) {
    if (size_ == 0) return false;
    std::size_t i = home(key);
    for (;; i = (i + 1) & mask_) {
      if (!slots_[i].used) return false;
      if (slots_[i].key == key) break;
    }
    // Backward shift: an entry further along the run moves into the hole unless its home lies
    // cyclically in (hole, its slot].
    for (std::size_t j = (i + 1) & mask_; slots_[j].used; j = (j + 1) & mask_) {
      const std::size_t h = home(slots_[j].key);
      const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (stays) continue;
      slots_[i] = std::move(slots_[j]);
      i = j;
    }
    slots_[i].used = false;
    --size_;
    return true;
  }

 private:
  struct Slot {
    std::uint64_t key = 0;
    V value{};
    bool used = false;
  };
  std::size_t home(std::uint64_t key) const {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_) & mask_;
  }
  V& place(std::uint64_t key, const V& value) {
    std::size_t i = home(key);
    while (slots_[i].used) i = (i + 1) & mask_;
    slots_[i].key = key;
    slots_[i].value = value;
    slots_[i].used = true;
    ++size_;
    return slots_[i].value;
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const std::size_t n = old.empty() ? 16 : 2 * old.size();
    slots_.assign(n, Slot{});
    mask_ = n - 1;
    unsigned bits = 0;
    while ((std::size_t{1} << bits) < n) ++bits;
    shift_ = 64 - bits;
    size_ = 0;
    for (Slot& s : old)
      if (s.used) place(s.key, s.value);
  }
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
};

}  // namespace drivevp
