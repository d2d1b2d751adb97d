// Byte copies for DMA-sized buffers (the data path of every read and write).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace drivevp {

/// Copies n bytes in 64-byte chunks. glibc's memcpy uses `rep movsb` for these sizes, which on
/// some x86 hosts (measured on AMD EPYC, docs/performance.md) runs more than 10x slower when the
/// destination sits just above the source modulo 4 KiB, as the platform's staging and sector
/// buffers can; plain vector moves have no such cliff. The buffers must not overlap.
inline void copy_bytes(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    unsigned char chunk[64];
    __builtin_memcpy(chunk, src + i, 64);
    __builtin_memcpy(dst + i, chunk, 64);
  }
  if (i < n) std::memcpy(dst + i, src + i, n - i);
}

}  // namespace drivevp
