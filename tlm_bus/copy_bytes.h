// Byte copies and fills for DMA-sized buffers (the data path of every read and write).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define DRIVEVP_COPY_AVX2 1
#endif

namespace drivevp {

namespace detail {
#ifdef DRIVEVP_COPY_AVX2
/// True when the CPU has AVX2 (checked once, at start-up).
inline const bool kHasAvx2 = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}();

__attribute__((target("avx2"))) inline void copy_bytes_avx2(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i + 32));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), a);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i + 32), b);
  }
  if (i < n) std::memcpy(dst + i, src + i, n - i);
}

__attribute__((target("avx2"))) inline void fill_words_avx2(std::uint8_t* dst, std::uint64_t word, std::size_t n) {
  const __m256i w = _mm256_set1_epi64x(static_cast<long long>(word));
  for (std::size_t i = 0; i < n; i += 64) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), w);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i + 32), w);
  }
}
#endif
}  // namespace detail

/// Copies n bytes in 64-byte chunks of vector moves (AVX2 when the CPU has it, else 16-byte
/// moves), the tail with memcpy. glibc's memcpy uses `rep movsb` for these sizes, which on some
/// x86 hosts (measured on AMD EPYC, docs/performance.md) runs more than 10x slower when the
/// destination sits just above the source modulo 4 KiB, as the platform's staging and sector
/// buffers can; plain vector moves have no such cliff. The buffers must not overlap.
inline void copy_bytes(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) {
#ifdef DRIVEVP_COPY_AVX2
  if (detail::kHasAvx2) return detail::copy_bytes_avx2(dst, src, n);
#endif
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    unsigned char chunk[64];
    __builtin_memcpy(chunk, src + i, 64);
    __builtin_memcpy(dst + i, chunk, 64);
  }
  if (i < n) std::memcpy(dst + i, src + i, n - i);
}

/// Writes `word` into every 8-byte position of the n bytes at `dst`; n is a multiple of 64.
inline void fill_words(std::uint8_t* dst, std::uint64_t word, std::size_t n) {
#ifdef DRIVEVP_COPY_AVX2
  if (detail::kHasAvx2) return detail::fill_words_avx2(dst, word, n);
#endif
  const std::uint64_t pair[2] = {word, word};
  for (std::size_t i = 0; i < n; i += sizeof pair) std::memcpy(dst + i, pair, sizeof pair);
}

}  // namespace drivevp
