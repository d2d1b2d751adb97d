// Media contents.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "tlm_bus/block_map.h"
#include "tlm_bus/command.h"
#include "tlm_bus/data_pattern.h"

namespace drivevp {

/// The data on the media. A block never written reads as the unwritten pattern (compact and payload modes)
/// (pattern::unwritten_word(lbn), the LBN, in every 8-byte word). How written data is kept
/// depends on the mode, chosen before the first write (scenario keys run.check_data and
/// run.store_payload, docs/user-guide.md):
///
/// - Compact (the default; data checked, payload not asked for): lossless, a few bytes per
///   block. A block that holds the test bench's write pattern (tlm_bus/data_pattern.h: one word
///   written_word(id, lbn) in every position, as the host writes) or the unwritten pattern is
///   kept as the writing command's id, recovered from the data itself (pattern::writer_of), in a
///   BlockMap: 4 bytes per block in pages of 4,096 blocks allocated on first write, 8 bytes in a
///   page once an id of 2^32 - 2 or more lands in it. Any other block (a corrupted or foreign
///   payload) is kept as its 512 bytes. A read produces exactly the bytes last written.
///   Memory: bounded by the capacity at 4 bytes per block (8 past 4.29e9 commands) plus 512 per
///   block of non-pattern data, however many requests run.
/// - Payload (run.store_payload = true): every written block kept as its 512 bytes, in 4 KiB
///   pages (8 blocks) allocated on first write: for firmware or hosts that move real data.
/// - Discard (run.check_data = false, payload not asked for): nothing is kept and nothing is
///   produced; writes are dropped at the media and a read leaves the bytes of `out` as they were
///   (the host of such a run checks no read and keeps no read data, so no one looks at them; the
///   transfers and their timing are those of the other modes). No memory per block, no work per
///   byte.
///
/// In the compact and payload modes the bytes move between the sector buffer and the store as
/// they do on a real drive; only the store's representation differs. Plain C++.
class BackingStore {
 public:
  enum class Mode { Compact, Payload, Discard };

  static constexpr std::uint64_t kPageBlocks = 8;  ///< payload mode: 4 KiB pages

  /// The 8-byte word an unwritten block `lbn` holds at every word position.
  static std::uint64_t unwritten_word(std::uint64_t lbn) { return pattern::unwritten_word(lbn); }

  explicit BackingStore(Mode mode = Mode::Compact) : mode_(mode) {}

  /// Selects how data is kept. Throws std::logic_error once anything has been written.
  void set_mode(Mode mode);
  Mode mode() const { return mode_; }

  /// Copies `blocks` blocks starting at `lbn` into `out` (blocks * kBlockBytes bytes); discard
  /// mode: leaves `out` untouched.
  void read(std::uint64_t lbn, std::uint64_t blocks, std::uint8_t* out) const;
  /// Stores `blocks` blocks starting at `lbn` from `in` (blocks * kBlockBytes bytes).
  void write(std::uint64_t lbn, std::uint64_t blocks, const std::uint8_t* in);

  /// What the store holds, exactly (the hash tables' own nodes are not counted).
  struct Footprint {
    std::uint64_t id_pages = 0;       ///< compact: BlockMap pages of 4,096 blocks
    std::uint64_t wide_id_pages = 0;  ///< compact: those of them with 8-byte entries
    std::uint64_t raw_blocks = 0;     ///< compact: blocks of non-pattern data, 512 bytes each
    std::uint64_t payload_pages = 0;  ///< payload: 4 KiB pages
    std::uint64_t bytes = 0;          ///< all of the above in bytes
  };
  Footprint footprint() const;

 private:
  /// Compact-mode BlockMap values: 0 unwritten pattern, 1 raw (in raw_), id + 2 pattern of `id`.
  static constexpr std::uint64_t kRaw = 1;
  static constexpr std::uint64_t kIdBase = 2;
  using Block = std::array<std::uint8_t, kBlockBytes>;
  struct Page {
    std::array<std::uint8_t, kPageBlocks * kBlockBytes> data;
    std::uint8_t written = 0;  ///< bit i: block i of the page was written
  };
  void read_compact(std::uint64_t lbn, std::uint64_t blocks, std::uint8_t* out) const;
  void write_compact(std::uint64_t lbn, std::uint64_t blocks, const std::uint8_t* in);
  void read_payload(std::uint64_t lbn, std::uint64_t blocks, std::uint8_t* out) const;
  void write_payload(std::uint64_t lbn, std::uint64_t blocks, const std::uint8_t* in);

  Mode mode_;
  bool written_ = false;
  BlockMap ids_;                                                    ///< compact
  std::unordered_map<std::uint64_t, std::unique_ptr<Block>> raw_;   ///< compact: non-pattern blocks
  std::unordered_map<std::uint64_t, std::unique_ptr<Page>> pages_;  ///< payload
};

/// "compact", "payload" or "discard".
const char* to_string(BackingStore::Mode mode);

}  // namespace drivevp
