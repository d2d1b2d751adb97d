// Scoreboards and checkers of the test bench: request conservation and data integrity.
// Plain C++.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tlm_bus/block_map.h"
#include "tlm_bus/command.h"
#include "tlm_bus/data_pattern.h"

namespace drivevp {

/// Collects up to kMaxMessages violation messages and counts all of them.
class Violations {
 public:
  static constexpr std::size_t kMaxMessages = 10;
  void report(std::string message) {
    ++count_;
    if (messages_.size() < kMaxMessages) messages_.push_back(std::move(message));
  }
  std::uint64_t count() const { return count_; }
  const std::vector<std::string>& messages() const { return messages_; }

 private:
  std::uint64_t count_ = 0;
  std::vector<std::string> messages_;
};

/// Request conservation: every submitted command completes exactly once, with the tag it was
/// submitted with, and nothing completes that was not submitted. Memory: one entry per tag.
class ConservationChecker {
 public:
  explicit ConservationChecker(std::uint32_t tags) : in_flight_(tags, kFree) {}
  void submitted(const Command& c);
  void completed(std::uint64_t id, std::uint32_t tag);
  /// At the end of the run: reports commands still in flight.
  void finish();
  std::uint64_t submitted_count() const { return submitted_; }
  std::uint64_t completed_count() const { return completed_; }
  const Violations& violations() const { return violations_; }

 private:
  static constexpr std::uint64_t kFree = ~std::uint64_t{0};
  std::vector<std::uint64_t> in_flight_;  ///< command id by tag, kFree when the tag is free
  std::uint64_t submitted_ = 0;
  std::uint64_t completed_ = 0;
  Violations violations_;
};

/// Data integrity: a read returns, for each block, the data of the last write to that block that
/// completed before the read was served (the unwritten pattern if none), checked exactly, every
/// byte. Writes carry the pattern write_word(command id, lbn) in every 8-byte word; unwritten
/// blocks hold pattern::unwritten_word(lbn) == lbn (tlm_bus/data_pattern.h). Commands complete in
/// service order (one media operation at a time), so completion order is media order. Memory:
/// the last writer's id per block in a BlockMap, 4 bytes per block in pages of 4,096 blocks
/// allocated on the first write to them (8 bytes in a page once an id of 2^32 - 1 or more lands
/// in it): bounded by the capacity, not by the number of requests.
class DataIntegrityChecker {
 public:
  /// The word a write by command `id` puts in every 8-byte position of block `lbn`
  /// (pattern::written_word).
  static std::uint64_t write_word(std::uint64_t id, std::uint64_t lbn) { return pattern::written_word(id, lbn); }
  /// Fills `buffer` (blocks * kBlockBytes) with the data command `c` writes.
  static void fill_write(const Command& c, std::uint8_t* buffer);
  /// A write completed: its blocks now hold its pattern.
  void write_completed(const Command& c);
  /// A read completed with `data`: checks every word. Returns true if all match.
  bool read_completed(const Command& c, const std::uint8_t* data);
  const Violations& violations() const { return violations_; }
  /// Pages of the last-writer map allocated and their bytes (BlockMap::entry_bytes).
  std::size_t pages() const { return last_writer_.pages(); }
  std::uint64_t bytes() const { return last_writer_.entry_bytes(); }

 private:
  BlockMap last_writer_;  ///< lbn -> last writer's command id + 1, 0 = never written
  Violations violations_;
};

}  // namespace drivevp
