#include <algorithm>
#include <stdexcept>

#include "firmware/policies/mems/mems_policy.h"
#include "firmware/policies/policies.h"
#include "firmware/policy.h"

namespace drivevp {

const std::vector<PolicyInfo>& policy_registry() {
  // One entry per policy: adding a policy means its own file in firmware/policies/, its
  // describe_*() declaration in firmware/policies/policies.h, and one entry here.
  // The MEMS-only policies of paper 002 follow (firmware/policies/mems/mems_policy.cpp).
  static const std::vector<PolicyInfo> registry = [] {
    std::vector<PolicyInfo> r = {
        describe_fcfs(),  describe_sstf(),  describe_scan(), describe_look(),
        describe_cscan(), describe_clook(), describe_sptf(), describe_aged_sptf(),
    };
    for (PolicyInfo& p : describe_mems_policies()) r.push_back(std::move(p));
    return r;
  }();
  return registry;
}

const PolicyInfo* find_policy(std::string_view key) {
  for (const PolicyInfo& p : policy_registry())
    if (p.key == key) return &p;
  return nullptr;
}

bool PolicyInfo::applies_to(std::string_view device_kind) const {
  return std::find(devices.begin(), devices.end(), device_kind) != devices.end();
}

std::unique_ptr<SchedulingPolicy> make_policy(std::string_view key, const PolicyParams& overrides,
                                              std::string_view device_kind) {
  const PolicyInfo* info = find_policy(key);
  if (!info) throw std::invalid_argument("unknown scheduling policy '" + std::string(key) + "'");
  if (!info->applies_to(device_kind)) {
    std::string kinds;
    for (const std::string& d : info->devices) kinds += (kinds.empty() ? "" : ", ") + d;
    throw std::invalid_argument("policy '" + info->key + "' (" + info->paper_name + ") does not apply to a " +
                                std::string(device_kind) + " device; it applies to: " + kinds);
  }
  PolicyParams params;
  for (const PolicyParameter& p : info->params) params[p.name] = p.default_value;
  for (const auto& [name, value] : overrides) {
    auto it = params.find(name);
    if (it == params.end()) throw std::invalid_argument("policy '" + info->key + "' has no parameter '" + name + "'");
    for (const PolicyParameter& p : info->params)
      if (p.name == name && (value < p.min || value > p.max))
        throw std::invalid_argument("policy '" + info->key + "' parameter '" + name + "' must be in [" +
                                    std::to_string(p.min) + ", " + std::to_string(p.max) + "], got " +
                                    std::to_string(value));
    it->second = value;
  }
  return info->make(params, device_kind);
}

}  // namespace drivevp
