#include "testbench/sim/checkers.h"

#include <cstring>

#include <fmt/format.h>

namespace drivevp {

void ConservationChecker::submitted(const Command& c) {
  ++submitted_;
  if (c.tag >= in_flight_.size()) {
    violations_.report(
        fmt::format("command {} submitted with tag {} beyond the queue depth {}", c.id, c.tag, in_flight_.size()));
    return;
  }
  if (in_flight_[c.tag] != kFree)
    violations_.report(
        fmt::format("command {} submitted with tag {} still held by command {}", c.id, c.tag, in_flight_[c.tag]));
  in_flight_[c.tag] = c.id;
}

void ConservationChecker::completed(std::uint64_t id, std::uint32_t tag) {
  ++completed_;
  if (tag >= in_flight_.size() || in_flight_[tag] != id) {
    violations_.report(fmt::format("completion of command {} (tag {}) that is not in flight", id, tag));
    return;
  }
  in_flight_[tag] = kFree;
}

void ConservationChecker::finish() {
  for (std::size_t tag = 0; tag < in_flight_.size(); ++tag)
    if (in_flight_[tag] != kFree)
      violations_.report(fmt::format("command {} (tag {}) never completed", in_flight_[tag], tag));
  if (submitted_ != completed_)
    violations_.report(fmt::format("{} commands submitted but {} completions", submitted_, completed_));
}

std::uint64_t DataIntegrityChecker::write_word(std::uint64_t id, std::uint64_t lbn) {
  // splitmix64 of (id, lbn): never equal to the unwritten pattern except by a 2^-64 accident.
  std::uint64_t z = (id + 1) * 0x9E3779B97F4A7C15ull ^ (lbn + 0x632BE59BD9B4E019ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void DataIntegrityChecker::fill_write(const Command& c, std::uint8_t* buffer) {
  for (std::uint32_t b = 0; b < c.blocks; ++b) {
    const std::uint64_t w = write_word(c.id, c.lbn + b);
    for (std::uint32_t i = 0; i < kBlockBytes; i += 8) std::memcpy(buffer + std::size_t{b} * kBlockBytes + i, &w, 8);
  }
}

void DataIntegrityChecker::write_completed(const Command& c) {
  for (std::uint32_t b = 0; b < c.blocks; ++b) last_writer_[c.lbn + b] = c.id;
}

bool DataIntegrityChecker::read_completed(const Command& c, const std::uint8_t* data) {
  for (std::uint32_t b = 0; b < c.blocks; ++b) {
    const std::uint64_t lbn = c.lbn + b;
    auto it = last_writer_.find(lbn);
    const std::uint64_t expected = it == last_writer_.end() ? lbn : write_word(it->second, lbn);
    for (std::uint32_t i = 0; i < kBlockBytes; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, data + std::size_t{b} * kBlockBytes + i, 8);
      if (w != expected) {
        violations_.report(fmt::format(
            "read {} block {}: word {} is {:#018x}, expected {:#018x} ({})", c.id, lbn, i / 8, w, expected,
            it == last_writer_.end() ? std::string("never written") : fmt::format("written by {}", it->second)));
        return false;
      }
    }
  }
  return true;
}

}  // namespace drivevp
