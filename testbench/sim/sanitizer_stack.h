// AddressSanitizer and SystemC's coroutines: SystemC (Debian's build, QuickThreads) switches
// stacks in assembly that AddressSanitizer does not see, so after sc_start() ASan no longer knows
// the main thread's stack bounds and refuses __asan_handle_no_return ("ASan is ignoring requested
// __asan_handle_no_return", google/sanitizers#189). A C++ exception then leaves the redzones of
// the frames it unwound poisoned, and the catch handler's own calls report a false
// stack-buffer-overflow. forget_unwound_frames(), called first in a catch handler that follows
// the simulation, does what __asan_handle_no_return would have done: it unpoisons the stack below
// the handler's frame, which holds only dead frames. It does nothing in builds without ASan.
#pragma once

#include <cstdint>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace drivevp {

#if defined(__SANITIZE_ADDRESS__)
/// Unpoisons 256 KiB of stack below the caller's frame (dead frames of an unwound exception).
__attribute__((noinline)) inline void forget_unwound_frames() {
  constexpr std::uintptr_t kSpan = 256 * 1024;
  const auto sp = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  __asan_unpoison_memory_region(reinterpret_cast<void*>(sp - kSpan), kSpan);
}
#else
inline void forget_unwound_frames() {}
#endif

}  // namespace drivevp
