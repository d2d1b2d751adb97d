// make_queue(): the MEMS policies by scenario key (queue.h).
#include <stdexcept>
#include <string>

#include "firmware/policies/mems/policies.h"

namespace drivevp::mems_sched {

const std::vector<std::string>& queue_keys() {
  static const std::vector<std::string> keys{"fcfs",   "sstf",  "sptf",        "psptf",
                                             "pasptf", "zsptf", "zscan_psptf", "zpsptf"};
  return keys;
}

std::unique_ptr<Queue> make_queue(std::string_view key, const Geometry& g) {
  if (key == "fcfs") return std::make_unique<FcfsQueue>(g);
  if (key == "sstf") return std::make_unique<SstfQueue>(g);
  if (key == "sptf") return std::make_unique<SptfQueue>(g);
  if (key == "psptf") return std::make_unique<PSptfQueue>(g);
  if (key == "pasptf") return std::make_unique<PaSptfQueue>(g);
  if (key == "zsptf") return std::make_unique<ZsptfQueue>(g);
  if (key == "zscan_psptf") return std::make_unique<ZscanPsptfQueue>(g);
  if (key == "zpsptf") return std::make_unique<ZpsptfQueue>(g);
  std::string known;
  for (const auto& k : queue_keys()) known += (known.empty() ? "" : ", ") + k;
  throw std::invalid_argument("mems_sched::make_queue: unknown policy '" + std::string(key) + "' (expected one of " +
                              known + ")");
}

}  // namespace drivevp::mems_sched
