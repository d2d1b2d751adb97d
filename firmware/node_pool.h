// An allocator that recycles single-object allocations (the nodes of std::set, std::map and
// std::unordered_map) through a free list, so that a container whose size stays bounded stops
// calling malloc and free once it has reached its largest size.
#pragma once

#include <cstddef>
#include <memory>

namespace drivevp {

/// Stateless allocator: allocate(1) takes a block from a per-thread free list of blocks of T (or
/// from std::allocator when the list is empty); deallocate(p, 1) puts the block back on the list
/// of the calling thread. Arrays (n != 1: a hash table's buckets) go to std::allocator. Blocks on
/// a free list are kept until the process exits (they stay reachable from the list), so the
/// memory held is the most blocks of T ever live at once. Container semantics (order, iteration)
/// do not depend on the allocator.
template <class T>
class NodePool {
 public:
  using value_type = T;
  NodePool() noexcept = default;
  template <class U>
  NodePool(const NodePool<U>&) noexcept {}  // NOLINT(google-explicit-constructor): rebinding

  T* allocate(std::size_t n) {
    static_assert(sizeof(T) >= sizeof(void*), "NodePool: a free block holds the next pointer");
    if (n == 1) {
      void*& head = free_list();
      if (head) {
        void* p = head;
        head = *static_cast<void**>(p);
        return static_cast<T*>(p);
      }
    }
    return std::allocator<T>{}.allocate(n);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n == 1) {
      void*& head = free_list();
      *reinterpret_cast<void**>(p) = head;
      head = p;
      return;
    }
    std::allocator<T>{}.deallocate(p, n);
  }

  template <class U>
  bool operator==(const NodePool<U>&) const noexcept {
    return true;
  }
  template <class U>
  bool operator!=(const NodePool<U>&) const noexcept {
    return false;
  }

 private:
  static void*& free_list() {
    thread_local void* head = nullptr;
    return head;
  }
};

}  // namespace drivevp
