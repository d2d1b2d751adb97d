// Typed scenario keys declared by the component that owns them (a device's parameters, a
// policy's parameters), beside the members they set, instead of one central table: the scenario
// loader (testbench/scenario/) reads the TOML value, checks it against the declaration (type,
// range, choices) and hands the component a checked KeyValue. Plain C++, no TOML or SystemC.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace drivevp {

/// The type of a key's value as TOML spells it.
enum class KeyType {
  Number,   ///< a TOML integer or float, in [min, max]
  Integer,  ///< a TOML integer, in [min, max]
  Boolean,  ///< true or false
  Enum,     ///< a string, one of `choices`
  List,     ///< an array of numbers, each in [min, max], with [min_items, max_items] items
};

/// A checked value: `number` for Number, Integer (exact up to 2^53) and Boolean (0 or 1); `text`
/// for Enum; `list` for List.
struct KeyValue {
  double number = 0;
  std::string text;
  std::vector<double> list;
};

/// One key of component `P`'s parameters. Its scenario spelling is "<section>.<name>"
/// (section "device" for a device, "firmware" for a policy).
template <class P>
struct ParamKey {
  std::string name;  ///< e.g. "spring_constant_factor"
  KeyType type = KeyType::Number;
  double min = 0;                    ///< Number, Integer, List items: inclusive lower bound
  double max = 0;                    ///< inclusive upper bound
  bool min_open = false;             ///< Number: the lower bound is excluded
  std::vector<std::string> choices;  ///< Enum: the allowed strings
  std::size_t min_items = 1;         ///< List
  std::size_t max_items = 1;         ///< List
  std::string unit;                  ///< e.g. "nm", "ms", "" for dimensionless
  std::string description;           ///< one line, with the value's source (paper section or datasheet)
  /// Sets the member from a checked value; may throw std::invalid_argument for a cross-member
  /// condition the declaration cannot express (the loader names the key).
  std::function<void(P&, const KeyValue&)> set;
  /// The member's current value (the preset's default), as the loader shows it.
  std::function<std::string(const P&)> show;
};

}  // namespace drivevp
