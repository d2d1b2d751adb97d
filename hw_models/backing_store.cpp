#include "hw_models/backing_store.h"

#include <algorithm>
#include <stdexcept>

#include "tlm_bus/copy_bytes.h"

namespace drivevp {

const char* to_string(BackingStore::Mode mode) {
  switch (mode) {
    case BackingStore::Mode::Compact:
      return "compact";
    case BackingStore::Mode::Payload:
      return "payload";
    case BackingStore::Mode::Discard:
      return "discard";
  }
  return "compact";
}

void BackingStore::set_mode(Mode mode) {
  if (written_ && mode != mode_)
    throw std::logic_error(std::string("BackingStore::set_mode: the store already holds data in ") + to_string(mode_) +
                           " mode");
  mode_ = mode;
}

void BackingStore::read(std::uint64_t lbn, std::uint64_t blocks, std::uint8_t* out) const {
  switch (mode_) {
    case Mode::Compact:
      read_compact(lbn, blocks, out);
      return;
    case Mode::Payload:
      read_payload(lbn, blocks, out);
      return;
    case Mode::Discard:  // nothing looks at the bytes: they are not produced
      return;
  }
}

void BackingStore::write(std::uint64_t lbn, std::uint64_t blocks, const std::uint8_t* in) {
  written_ = written_ || blocks > 0;
  switch (mode_) {
    case Mode::Compact:
      write_compact(lbn, blocks, in);
      return;
    case Mode::Payload:
      write_payload(lbn, blocks, in);
      return;
    case Mode::Discard:
      return;
  }
}

void BackingStore::read_compact(std::uint64_t lbn, std::uint64_t blocks, std::uint8_t* out) const {
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t l = lbn + b;
    std::uint8_t* dst = out + b * kBlockBytes;
    const std::uint64_t v = ids_.get(l);
    if (v == 0)
      pattern::fill_block(dst, unwritten_word(l));
    else if (v == kRaw)
      copy_bytes(dst, raw_.at(l)->data(), kBlockBytes);
    else
      pattern::fill_block(dst, pattern::written_word(v - kIdBase, l));
  }
}

void BackingStore::write_compact(std::uint64_t lbn, std::uint64_t blocks, const std::uint8_t* in) {
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t l = lbn + b;
    const std::uint8_t* src = in + b * kBlockBytes;
    std::uint64_t value = kRaw;
    std::uint64_t w = 0;
    if (pattern::uniform_block(src, w)) {
      if (w == unwritten_word(l)) {
        value = 0;
      } else {
        const std::uint64_t id = pattern::writer_of(w, l);
        if (id <= ~std::uint64_t{0} - kIdBase) value = id + kIdBase;
      }
    }
    if (value == kRaw) {
      auto& block = raw_[l];
      if (!block) block = std::make_unique<Block>();
      copy_bytes(block->data(), src, kBlockBytes);
    } else if (!raw_.empty()) {
      raw_.erase(l);  // the block held non-pattern data before
    }
    ids_.set(l, value);
  }
}

void BackingStore::read_payload(std::uint64_t lbn, std::uint64_t blocks, std::uint8_t* out) const {
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
        pattern::fill_block(out + b * kBlockBytes, unwritten_word(l + k));
    }
  }
}

void BackingStore::write_payload(std::uint64_t lbn, std::uint64_t blocks, const std::uint8_t* in) {
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t l = lbn + b;
    auto& page = pages_[l / kPageBlocks];
    if (!page) page = std::make_unique<Page>();
    const std::uint64_t i = l % kPageBlocks;
    copy_bytes(page->data.data() + i * kBlockBytes, in + b * kBlockBytes, kBlockBytes);
    page->written = static_cast<std::uint8_t>(page->written | (1u << i));
  }
}

BackingStore::Footprint BackingStore::footprint() const {
  Footprint f;
  f.id_pages = ids_.pages();
  f.wide_id_pages = ids_.wide_pages();
  f.raw_blocks = raw_.size();
  f.payload_pages = pages_.size();
  f.bytes = ids_.entry_bytes() + f.raw_blocks * kBlockBytes + f.payload_pages * sizeof(Page);
  return f;
}

}  // namespace drivevp
