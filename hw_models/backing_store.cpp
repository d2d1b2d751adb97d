#include "hw_models/backing_store.h"

#include <cstring>

#include "tlm_bus/copy_bytes.h"

namespace drivevp {

static void fill_unwritten(std::uint64_t lbn, std::uint8_t* out) {
  const std::uint64_t w = BackingStore::unwritten_word(lbn);
  for (std::uint32_t i = 0; i < kBlockBytes; i += 8) std::memcpy(out + i, &w, 8);
}

void BackingStore::read(std::uint64_t lbn, std::uint64_t blocks, std::uint8_t* out) const {
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t l = lbn + b;
    auto it = pages_.find(l / kPageBlocks);
    const std::uint64_t i = l % kPageBlocks;
    if (it != pages_.end() && (it->second->written >> i & 1))
      copy_bytes(out + b * kBlockBytes, it->second->data.data() + i * kBlockBytes, kBlockBytes);
    else
      fill_unwritten(l, out + b * kBlockBytes);
  }
}

void BackingStore::write(std::uint64_t lbn, std::uint64_t blocks, const std::uint8_t* in) {
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t l = lbn + b;
    auto& page = pages_[l / kPageBlocks];
    if (!page) page = std::make_unique<Page>();
    const std::uint64_t i = l % kPageBlocks;
    copy_bytes(page->data.data() + i * kBlockBytes, in + b * kBlockBytes, kBlockBytes);
    page->written = static_cast<std::uint8_t>(page->written | (1u << i));
  }
}

}  // namespace drivevp
