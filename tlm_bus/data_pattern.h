// The data patterns of the platform's data path: what a block holds before it is ever written,
// and what the test bench's host writes into a block. Shared by the test bench (the host fills
// its write buffers with them, the data-integrity checker checks read data against them) and the
// media store (hw_models/backing_store.h), which keeps a block holding one of them as a few
// bytes instead of its 512. Plain C++.
#pragma once

#include <cstdint>
#include <cstring>

#include "tlm_bus/command.h"
#include "tlm_bus/copy_bytes.h"

namespace drivevp::pattern {

/// The 8-byte word (host byte order) in every word position of block `lbn` while it has never
/// been written: the LBN itself.
constexpr std::uint64_t unwritten_word(std::uint64_t lbn) { return lbn; }

namespace detail {

inline constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ull;  // splitmix64's increment
inline constexpr std::uint64_t kLbnSalt = 0x632BE59BD9B4E019ull;
inline constexpr std::uint64_t kMix1 = 0xBF58476D1CE4E5B9ull;  // splitmix64's output multipliers
inline constexpr std::uint64_t kMix2 = 0x94D049BB133111EBull;

/// The inverse of odd `a` modulo 2^64 (Newton's iteration: 3 correct bits, doubled 5 times).
constexpr std::uint64_t inverse(std::uint64_t a) {
  std::uint64_t x = a;
  for (int i = 0; i < 5; ++i) x *= 2 - a * x;
  return x;
}
static_assert(inverse(kGolden) * kGolden == 1 && inverse(kMix1) * kMix1 == 1 && inverse(kMix2) * kMix2 == 1);

/// The inverse of x -> x ^ (x >> s) for 0 < s < 64.
constexpr std::uint64_t unxorshift(std::uint64_t y, unsigned s) {
  std::uint64_t x = y;
  for (unsigned k = s; k < 64; k += s) x = y ^ (x >> s);
  return x;
}

}  // namespace detail

/// The 8-byte word (host byte order) in every word position of block `lbn` written by the host's
/// command `id`: splitmix64's output function (Steele, Lea & Flood, "Fast splittable pseudorandom
/// number generators", OOPSLA 2014; the finaliser of java.util.SplittableRandom) applied to
/// (id + 1) * 0x9E3779B97F4A7C15 ^ (lbn + 0x632BE59BD9B4E019). For a given LBN it is a bijection
/// of the id, so two writes to a block never carry the same data and writer_of() recovers the id.
/// Any id and LBN are valid.
constexpr std::uint64_t written_word(std::uint64_t id, std::uint64_t lbn) {
  std::uint64_t z = (id + 1) * detail::kGolden ^ (lbn + detail::kLbnSalt);
  z = (z ^ (z >> 30)) * detail::kMix1;
  z = (z ^ (z >> 27)) * detail::kMix2;
  return z ^ (z >> 31);
}

/// The command id whose write puts `word` in block `lbn`: written_word(writer_of(w, lbn), lbn)
/// == w for every w and LBN (every word has exactly one writer id; most are far beyond any id a
/// run assigns).
constexpr std::uint64_t writer_of(std::uint64_t word, std::uint64_t lbn) {
  std::uint64_t z = detail::unxorshift(word, 31) * detail::inverse(detail::kMix2);
  z = detail::unxorshift(z, 27) * detail::inverse(detail::kMix1);
  z = detail::unxorshift(z, 30);
  return (z ^ (lbn + detail::kLbnSalt)) * detail::inverse(detail::kGolden) - 1;
}
static_assert(writer_of(written_word(0, 0), 0) == 0 &&
              writer_of(written_word(123456789, 987654321), 987654321) == 123456789);

/// Writes `word` into every 8-byte position of the kBlockBytes bytes at `block`.
inline void fill_block(std::uint8_t* block, std::uint64_t word) { fill_words(block, word, kBlockBytes); }

/// True if the kBlockBytes bytes at `block` hold one 8-byte word in every word position; that
/// word is then stored in `word`.
inline bool uniform_block(const std::uint8_t* block, std::uint64_t& word) {
  std::memcpy(&word, block, sizeof word);
  return std::memcmp(block, block + sizeof word, kBlockBytes - sizeof word) == 0;
}

}  // namespace drivevp::pattern
