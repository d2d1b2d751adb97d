// A register-bank helper for TLM targets: 32- and 64-bit registers at fixed offsets with read
// and write callbacks, decoded from a generic payload (loosely timed, b_transport).
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <systemc>
#include <tlm>

namespace drivevp {

/// Registers of one device, at 4-byte-aligned offsets. An access starts at a register's offset
/// and either is exactly that register's width (4 or 8 bytes) or is a burst over the following
/// addresses, served in address order as one bus transaction: each register in the burst is read
/// or written whole; in a read burst, reserved 4-byte words (between registers or after the last one) read as 0.
/// Anything else answers TLM_ADDRESS_ERROR_RESPONSE (no register at the start offset) or TLM_BURST_ERROR_RESPONSE (the
/// length splits a register, or a write burst covers a reserved word). A write that touches a read-only register
/// answers TLM_COMMAND_ERROR_RESPONSE and writes nothing. Look-up is O(1) by offset.
class RegisterBank {
 public:
  using Reader = std::function<std::uint64_t()>;
  using Writer = std::function<void(std::uint64_t value, tlm::tlm_generic_payload& trans)>;

  /// Adds a register. `offset` is a multiple of 4 below 64 KiB; `width` is 4 or 8 bytes; a null
  /// writer makes it read-only; a null reader makes it write-only (reads return 0). A reader may
  /// have side effects (read-to-clear registers). `name` is the register's name in
  /// docs/registers.md, for the reader of the call site; the bank does not keep it.
  void add(std::string_view /*name*/, std::uint64_t offset, unsigned width, Reader read, Writer write = nullptr) {
    const std::size_t word = static_cast<std::size_t>(offset / 4);
    if (by_word_.size() < word + 2) by_word_.resize(word + 2, -1);
    by_word_[word] = static_cast<int>(regs_.size());
    regs_.push_back({offset, width, std::move(read), std::move(write)});
    known_count_ = 0;  // a new register can change a burst's validity
  }

  /// Serves a whole burst: called with the access's data and payload (the access's delay through
  /// access_delay()) instead of each register's reader or writer.
  using BurstServer = std::function<void(unsigned char* data, tlm::tlm_generic_payload& trans)>;
  /// Serves the burst of `length` bytes at `offset` in direction `read` (a hot path of the
  /// device's driver) through `serve` in one call. `serve` must do exactly what the registers'
  /// readers or writers would, in address order (reserved words of a read burst read as 0). The
  /// burst must be valid over the registers already added: std::logic_error otherwise.
  void add_burst(std::uint64_t offset, std::uint64_t length, bool read, BurstServer serve) {
    const Reg* first = at(offset);
    bool ok = first != nullptr && length > first->width;
    for (std::uint64_t o = offset; ok && o < offset + length;) {
      const Reg* r = at(o);
      if (!r) {
        ok = read && o + 4 <= offset + length;
        o += 4;
        continue;
      }
      ok = o + r->width <= offset + length && (read || r->write);
      o += r->width;
    }
    if (!ok) throw std::logic_error("RegisterBank::add_burst: not a valid burst over the registers");
    bursts_.push_back({offset, length, read, std::move(serve)});
  }

  /// Serves one access at `offset` (relative to the bank) whose annotated delay is `delay`
  /// (callbacks read it through access_delay()). Returns true if a register matched.
  bool access(tlm::tlm_generic_payload& trans, std::uint64_t offset, const sc_core::sc_time& delay) {
    delay_ = &delay;
    const std::uint64_t length = trans.get_data_length();
    const bool read = trans.is_read();
    for (const Burst& b : bursts_)
      if (b.offset == offset && b.length == length && b.read == read) {
        b.serve(trans.get_data_ptr(), trans);
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
        return true;
      }
    const Reg* first = at(offset);
    if (!first) {
      trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return false;
    }
    if (length != first->width && !known_good(offset, length, read)) {  // a burst: check it before acting
      for (std::uint64_t o = offset; o < offset + length;) {
        const Reg* r = at(o);
        if (!r) {
          if (!read || o + 4 > offset + length) {  // reserved words only inside read bursts
            trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
            return true;
          }
          o += 4;
          continue;
        }
        if (o + r->width > offset + length) {
          trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
          return true;
        }
        if (!read && !r->write) {
          trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
          return true;
        }
        o += r->width;
      }
      remember_good(offset, length, read);
    } else if (length == first->width && !read && !first->write) {
      trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return true;
    }
    unsigned char* data = trans.get_data_ptr();
    if (length == first->width) {  // one register: no burst walk
      serve(*first, data, read, trans);
      trans.set_response_status(tlm::TLM_OK_RESPONSE);
      return true;
    }
    for (std::uint64_t o = offset; o < offset + length;) {
      const Reg* r = at(o);
      if (!r) {  // reserved word in a read burst
        std::memset(data, 0, 4);
        data += 4;
        o += 4;
        continue;
      }
      serve(*r, data, read, trans);
      data += r->width;
      o += r->width;
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return true;
  }

  /// Inside a read or write callback: the annotated delay of the access being served, so that a
  /// register can act at the access's time (loosely timed: sc_time_stamp() + delay).
  const sc_core::sc_time& access_delay() const { return *delay_; }

 private:
  struct Reg {
    std::uint64_t offset;
    unsigned width;
    Reader read;
    Writer write;
  };
  /// Reads register `r` into `data` or writes it from `data` (little-endian host; the widths 4
  /// and 8 of add() as fixed-size copies).
  static void serve(const Reg& r, unsigned char* data, bool read, tlm::tlm_generic_payload& trans) {
    if (read) {
      const std::uint64_t v = r.read ? r.read() : 0;
      if (r.width == 8)
        std::memcpy(data, &v, 8);
      else if (r.width == 4)
        std::memcpy(data, &v, 4);
      else
        std::memcpy(data, &v, r.width);
    } else {
      std::uint64_t v = 0;
      if (r.width == 8)
        std::memcpy(&v, data, 8);
      else if (r.width == 4)
        std::memcpy(&v, data, 4);
      else
        std::memcpy(&v, data, r.width);
      r.write(v, trans);
    }
  }
  const Reg* at(std::uint64_t offset) const {
    const std::uint64_t word = offset / 4;
    if (offset % 4 != 0 || word >= by_word_.size() || by_word_[word] < 0) return nullptr;
    return &regs_[static_cast<std::size_t>(by_word_[word])];
  }
  // Bursts found valid (the registers do not change after elaboration, so a burst's check
  // gives the same answer every time): a few recent (offset, length, direction), checked first.
  struct Known {
    std::uint64_t offset = 0, length = 0;
    bool read = false;
  };
  struct Burst {
    std::uint64_t offset, length;
    bool read;
    BurstServer serve;
  };
  static constexpr std::size_t kKnownBursts = 8;
  bool known_good(std::uint64_t offset, std::uint64_t length, bool read) const {
    for (std::size_t i = 0; i < known_count_; ++i)
      if (known_[i].offset == offset && known_[i].length == length && known_[i].read == read) return true;
    return false;
  }
  void remember_good(std::uint64_t offset, std::uint64_t length, bool read) {
    known_[known_next_] = {offset, length, read};
    known_next_ = (known_next_ + 1) % kKnownBursts;
    if (known_count_ < kKnownBursts) ++known_count_;
  }
  std::vector<Reg> regs_;
  std::vector<int> by_word_;  ///< register index by offset / 4, -1 where none starts
  Known known_[kKnownBursts];
  std::vector<Burst> bursts_;  ///< add_burst(), checked first
  std::size_t known_count_ = 0, known_next_ = 0;
  const sc_core::sc_time* delay_ = &sc_core::SC_ZERO_TIME;
};

}  // namespace drivevp
