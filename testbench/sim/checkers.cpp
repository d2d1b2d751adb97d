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

void DataIntegrityChecker::fill_write(const Command& c, std::uint8_t* buffer) {
  for (std::uint32_t b = 0; b < c.blocks; ++b)
    pattern::fill_block(buffer + std::size_t{b} * kBlockBytes, write_word(c.id, c.lbn + b));
}

void DataIntegrityChecker::write_completed(const Command& c) {
  for (std::uint32_t b = 0; b < c.blocks; ++b) last_writer_.set(c.lbn + b, c.id + 1);
}

bool DataIntegrityChecker::read_completed(const Command& c, const std::uint8_t* data) {
  for (std::uint32_t b = 0; b < c.blocks; ++b) {
    const std::uint64_t lbn = c.lbn + b;
    const std::uint64_t writer = last_writer_.get(lbn);  // id + 1, 0 = never written
    const std::uint64_t expected = writer == 0 ? pattern::unwritten_word(lbn) : write_word(writer - 1, lbn);
    for (std::uint32_t i = 0; i < kBlockBytes; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, data + std::size_t{b} * kBlockBytes + i, 8);
      if (w != expected) {
        violations_.report(
            fmt::format("read {} block {}: word {} is {:#018x}, expected {:#018x} ({})", c.id, lbn, i / 8, w, expected,
                        writer == 0 ? std::string("never written") : fmt::format("written by {}", writer - 1)));
        return false;
      }
    }
  }
  return true;
}

}  // namespace drivevp
