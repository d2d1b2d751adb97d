#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "firmware/policies/mems/mems_policy.h"
#include "firmware/policies/policies.h"
#include "firmware/policy.h"

namespace drivevp {

namespace {

PolicyParameter declared(std::string name, KeyType type, double default_value, double min, double max, std::string unit,
                         std::string description) {
  PolicyParameter p;
  p.name = std::move(name);
  p.type = type;
  p.default_value = default_value;
  p.min = min;
  p.max = max;
  p.unit = std::move(unit);
  p.description = std::move(description);
  return p;
}

}  // namespace

PolicyParameter PolicyParameter::number(std::string name, double default_value, double min, double max,
                                        std::string unit, std::string description) {
  return declared(std::move(name), KeyType::Number, default_value, min, max, std::move(unit), std::move(description));
}

PolicyParameter PolicyParameter::integer(std::string name, double default_value, double min, double max,
                                         std::string unit, std::string description) {
  return declared(std::move(name), KeyType::Integer, default_value, min, max, std::move(unit), std::move(description));
}

PolicyParameter PolicyParameter::boolean(std::string name, bool default_value, std::string description) {
  return declared(std::move(name), KeyType::Boolean, default_value ? 1 : 0, 0, 1, "", std::move(description));
}

PolicyParameter PolicyParameter::one_of(std::string name, std::vector<std::string> choices,
                                        const std::string& default_choice, std::string description) {
  const auto it = std::find(choices.begin(), choices.end(), default_choice);
  if (it == choices.end())
    throw std::invalid_argument("policy parameter '" + name + "': default '" + default_choice +
                                "' is not one of its choices");
  PolicyParameter p = declared(std::move(name), KeyType::Enum, static_cast<double>(it - choices.begin()), 0,
                               static_cast<double>(choices.size() - 1), "", std::move(description));
  p.choices = std::move(choices);
  return p;
}

const std::vector<PolicyInfo>& policy_registry() {
  // One entry per policy: adding a policy means its own file in firmware/policies/, its
  // describe_*() declaration in firmware/policies/policies.h, and one entry here.
  // The MEMS-only policies of paper 002 follow (firmware/policies/mems/mems_policy.cpp).
  static const std::vector<PolicyInfo> registry = [] {
    std::vector<PolicyInfo> r = {
        describe_fcfs(),         describe_sstf(),     describe_scan(),      describe_look(),       describe_cscan(),
        describe_clook(),        describe_sptf(),     describe_aged_sptf(), describe_noop(),       describe_deadline(),
        describe_anticipatory(), describe_cfq(),      describe_bfq(),       describe_nstep_scan(), describe_fscan(),
        describe_edf(),          describe_scan_edf(),
    };
    r.push_back(describe_parallel_deadline());
    r.push_back(describe_sfc());  // paper 001 (issue 11)
    for (PolicyInfo& p : describe_mems_policies()) r.push_back(std::move(p));
    // WRR-SCAN of paper 004 (firmware/rounds/wrr_scan.cpp).
    for (PolicyInfo (*d)() : {describe_wrr_scan_r, describe_wrr_scan_c, describe_wrr_scan_ca}) r.push_back(d());
    // Paper 003's mixed-media round schedulers (firmware/policies/mixed_media.cpp).
    for (PolicyInfo& p : describe_mixed_media_policies()) r.push_back(std::move(p));
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
    for (const PolicyParameter& p : info->params) {
      if (p.name != name) continue;
      // Integer, Boolean and Enum values (an Enum's choice index) are whole numbers.
      const bool whole = p.type == KeyType::Integer || p.type == KeyType::Boolean || p.type == KeyType::Enum;
      if (!(value >= p.min && value <= p.max) || (whole && value != std::floor(value)))
        throw std::invalid_argument("policy '" + info->key + "' parameter '" + name + "' must be " +
                                    (whole ? "an integer " : "") + "in [" + std::to_string(p.min) + ", " +
                                    std::to_string(p.max) + "], got " + std::to_string(value));
    }
    it->second = value;
  }
  return info->make(params, device_kind);
}

}  // namespace drivevp
