// Sparse media contents.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>

#include "tlm_bus/command.h"

namespace drivevp {

/// The data on the media, kept sparsely in pages of kPageBlocks blocks: a page is allocated on
/// the first write that touches it, so memory grows with the distinct data written, not with the
/// number of requests or the capacity. A block never written reads as the documented pattern:
/// each 8-byte little-endian word holds the block's LBN (unwritten_word()).
class BackingStore {
 public:
  static constexpr std::uint64_t kPageBlocks = 8;  ///< 4 KiB pages: scattered small writes cost little

  /// The 8-byte word an unwritten block `lbn` holds at every word position.
  static std::uint64_t unwritten_word(std::uint64_t lbn) { return lbn; }

  /// Copies `blocks` blocks starting at `lbn` into `out` (blocks * kBlockBytes bytes).
  void read(std::uint64_t lbn, std::uint64_t blocks, std::uint8_t* out) const;
  /// Stores `blocks` blocks starting at `lbn` from `in`.
  void write(std::uint64_t lbn, std::uint64_t blocks, const std::uint8_t* in);
  /// Pages allocated (for reports).
  std::size_t pages() const { return pages_.size(); }

 private:
  struct Page {
    std::array<std::uint8_t, kPageBlocks * kBlockBytes> data;
    std::uint8_t written = 0;  ///< bit i: block i of the page was written
  };
  std::unordered_map<std::uint64_t, std::unique_ptr<Page>> pages_;
};

}  // namespace drivevp
