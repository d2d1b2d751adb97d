#include "hw_models/backing_store.h"

#include <algorithm>
#include <cstring>

#include "tlm_bus/copy_bytes.h"

namespace drivevp {

static void fill_unwritten(std::uint64_t lbn, std::uint8_t* out) {
  const std::uint64_t w = BackingStore::unwritten_word(lbn);
  const std::uint64_t pair[2] = {w, w};
  for (std::uint32_t i = 0; i < kBlockBytes; i += sizeof pair) std::memcpy(out + i, pair, sizeof pair);
}

void BackingStore::read(std::uint64_t lbn, std::uint64_t blocks, std::uint8_t* out) const {
  std::uint64_t b = 0;
  while (b < blocks) {  // one page look-up per page touched
    const std::uint64_t l = lbn + b;
    const std::uint64_t in_page = std::min(blocks - b, kPageBlocks - l % kPageBlocks);
    const auto it = pages_.empty() ? pages_.end() : pages_.find(l / kPageBlocks);
    for (std::uint64_t k = 0; k < in_page; ++k, ++b) {
      const std::uint64_t i = (l + k) % kPageBlocks;
      if (it != pages_.end() && (it->second->written >> i & 1))
        copy_bytes(out + b * kBlockBytes, it->second->data.data() + i * kBlockBytes, kBlockBytes);
      else
        fill_unwritten(l + k, out + b * kBlockBytes);
    }
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
