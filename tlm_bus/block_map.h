// A per-block value for every LBN of a device, a few bytes per block, allocated page by page on
// first use. Plain C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

namespace drivevp {

/// Maps every LBN to a 64-bit value, initially 0. Values are held densely in pages of
/// kPageBlocks consecutive LBNs; a page is allocated when a nonzero value is first set in it, so
/// memory grows with the distinct regions touched (at most the device's capacity), never with
/// the number of sets. A page holds 4-byte entries (16 KiB) until a value of 2^32 or more is set
/// in it, then 8-byte entries (32 KiB) for good. Look-ups keep the last page found, so runs of
/// consecutive LBNs cost one hash look-up. Not thread-safe (the cache is shared by const calls).
class BlockMap {
 public:
  static constexpr std::uint64_t kPageBlocks = 4096;

  BlockMap() = default;
  BlockMap(const BlockMap&) = delete;  // the look-up cache points into the map
  BlockMap& operator=(const BlockMap&) = delete;

  /// The value of `lbn` (0 if never set).
  std::uint64_t get(std::uint64_t lbn) const {
    const Page* p = page(lbn / kPageBlocks);
    if (!p) return 0;
    const std::size_t i = lbn % kPageBlocks;
    return p->wide ? p->wide_entries[i] : p->entries[i];
  }

  /// Sets the value of `lbn`; setting 0 where nothing was set allocates nothing.
  void set(std::uint64_t lbn, std::uint64_t value) {
    const std::uint64_t index = lbn / kPageBlocks;
    Page* p = page(index);
    if (!p) {
      if (value == 0) return;
      p = &pages_[index];
      p->entries.assign(kPageBlocks, 0);
      cached_index_ = index;
      cached_ = p;
    }
    const std::size_t i = lbn % kPageBlocks;
    if (!p->wide) {
      if (value <= std::numeric_limits<std::uint32_t>::max()) {
        p->entries[i] = static_cast<std::uint32_t>(value);
        return;
      }
      p->wide_entries.assign(p->entries.begin(), p->entries.end());
      std::vector<std::uint32_t>().swap(p->entries);
      p->wide = true;
      ++wide_pages_;
    }
    p->wide_entries[i] = value;
  }

  /// Pages allocated.
  std::size_t pages() const { return pages_.size(); }
  /// Pages holding 8-byte entries (pages() includes them).
  std::size_t wide_pages() const { return wide_pages_; }
  /// Bytes of entries allocated: 16 KiB per page, 32 KiB per wide page (the hash table's own
  /// nodes, about 100 bytes per page, are not counted).
  std::uint64_t entry_bytes() const {
    return (pages_.size() - wide_pages_) * kPageBlocks * sizeof(std::uint32_t) +
           wide_pages_ * kPageBlocks * sizeof(std::uint64_t);
  }

 private:
  struct Page {
    bool wide = false;
    std::vector<std::uint32_t> entries;       ///< kPageBlocks entries while !wide
    std::vector<std::uint64_t> wide_entries;  ///< kPageBlocks entries once wide
  };

  /// The page of index `index`, or null; remembers the answer (pages never move: the map's
  /// nodes are stable and a page is never freed).
  Page* page(std::uint64_t index) const {
    if (index != cached_index_) {
      const auto it = pages_.find(index);
      cached_ = it == pages_.end() ? nullptr : const_cast<Page*>(&it->second);
      cached_index_ = index;
    }
    return cached_;
  }

  std::unordered_map<std::uint64_t, Page> pages_;
  std::size_t wide_pages_ = 0;
  mutable std::uint64_t cached_index_ = std::numeric_limits<std::uint64_t>::max();
  mutable Page* cached_ = nullptr;
};

}  // namespace drivevp
