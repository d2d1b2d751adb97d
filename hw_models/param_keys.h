// Typed scenario keys declared by the component that owns them (a device's parameters, a
// policy's parameters), beside the members they set, instead of one central table: the scenario
// loader (testbench/scenario/) reads the TOML value, checks it against the declaration (type,
// range, choices, items) and hands the component a checked KeyValue. Plain C++, no TOML or SystemC.
//
// A device declares `const std::vector<ParamKey<DeviceParams>>& <device>_param_keys()` beside its
// parameter struct (hw_models/disk/disk_keys.h, hw_models/mems/mems_keys.h); a policy declares
// PolicyParameter entries (firmware/policy.h), which are KeyDecls with a default.
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace drivevp {

/// The type of a key's value as TOML spells it.
enum class KeyType {
  Number,   ///< a TOML integer or float, in [min, max]
  Integer,  ///< a TOML integer, in [min, max]
  Boolean,  ///< true or false
  Enum,     ///< a string, one of `choices`
  List,     ///< an array: of numbers, each in [min, max], or (with `columns`) of tuples; with
            ///< [min_items, max_items] items
};

/// A checked value: `number` for Number, Integer (exact up to 2^53) and Boolean (0 or 1); `text`
/// for Enum; `list` for a List of numbers; `rows` for a List of tuples (one vector per item, one
/// value per column).
struct KeyValue {
  double number = 0;
  std::string text;
  std::vector<double> list;
  std::vector<std::vector<double>> rows;
};

/// One member of the tuples of a List of tuples (e.g. the `cylinders` of a zone
/// [first_cylinder, cylinders, sectors_per_track]): its name, type (Number or Integer) and range.
struct KeyColumn {
  std::string name;
  KeyType type = KeyType::Integer;
  double min = 0;  ///< inclusive
  double max = 0;  ///< inclusive
  std::string unit;
};

/// Thrown by a key's `check` or `set` for a value whose items all pass the declaration but that a
/// rule across items or members refuses (order, tiling, a sum that must equal another member):
/// the loader reports "<where>: <key>: expected <expected>, found <item `item` as written, or the
/// whole value>". A std::invalid_argument, so that callers without a loader still see the text.
struct KeyValueError : std::invalid_argument {
  static constexpr std::size_t kWholeValue = std::numeric_limits<std::size_t>::max();
  KeyValueError(std::string expected_text, std::size_t item_index = kWholeValue)
      : std::invalid_argument(expected_text), expected(std::move(expected_text)), item(item_index) {}
  std::string expected;  ///< e.g. "an array of [distance, ms] pairs, distances >= 1 strictly increasing"
  std::size_t item;      ///< the offending item's index, or kWholeValue
};

/// What a key accepts, independent of the component it sets: the loader checks a value against
/// this before the component sees it. Its scenario spelling is "<section>.<name>" (section
/// "device" for a device, "firmware" for a policy).
struct KeyDecl {
  std::string name;  ///< e.g. "spring_constant_factor", "seek_curve.short_const_ms"
  KeyType type = KeyType::Number;
  double min = 0;                    ///< Number, Integer, List of numbers: inclusive lower bound
  double max = 0;                    ///< inclusive upper bound
  bool min_open = false;             ///< Number: the lower bound is excluded
  std::vector<std::string> choices;  ///< Enum: the allowed strings
  std::size_t min_items = 1;         ///< List
  std::size_t max_items = 1;         ///< List; kUnbounded for no limit
  /// List of tuples: one entry per tuple member, read in order (each checked with its type and
  /// range). Empty for a List of numbers.
  std::vector<KeyColumn> columns;
  /// List of tuples: what a message expects of the value's shape, e.g. "an array of [distance,
  /// ms] pairs, distances >= 1 strictly increasing". A value that is not an array of
  /// [min_items, max_items] items is refused with this text, followed by ", <min_items> to
  /// <max_items> <unit>" when max_items is bounded; an item that is not an array of
  /// columns.size() values with this text alone.
  std::string shape;
  /// List of tuples: a rule across items (order, tiling), called after each column of each item
  /// is read, with the items read so far (the last one holds the columns read so far), so that a
  /// value with several faults reports the first in reading order. Throws KeyValueError naming
  /// the offending item. May be empty.
  std::function<void(const std::vector<std::vector<double>>& rows)> check;
  std::string unit;         ///< e.g. "nm", "ms", "" for dimensionless; a List of tuples: what an item is ("zones")
  std::string description;  ///< one line, with the value's source (paper section or datasheet)

  static constexpr std::size_t kUnbounded = std::numeric_limits<std::size_t>::max();
};

/// One key of component `P`'s parameters: a KeyDecl and the member it sets.
template <class P>
struct ParamKey : KeyDecl {
  /// Sets the member from a checked value; may throw std::invalid_argument (or KeyValueError) for
  /// a cross-member condition the declaration cannot express (the loader names the key).
  std::function<void(P&, const KeyValue&)> set;
  /// The member's current value (the preset's default), as the loader shows it.
  std::function<std::string(const P&)> show;
};

/// A Number or Integer key that sets member `member` of P directly (an Integer member gets the
/// checked number cast to its type) and shows it with fmt's shortest form.
template <class P, class T>
ParamKey<P> member_key(const char* name, KeyType type, T P::*member, double min, double max, const char* unit,
                       const char* description, bool min_open = false) {
  ParamKey<P> k;
  k.name = name;
  k.type = type;
  k.min = min;
  k.max = max;
  k.min_open = min_open;
  k.unit = unit;
  k.description = description;
  k.set = [member](P& p, const KeyValue& v) { p.*member = static_cast<T>(v.number); };
  k.show = [member](const P& p) { return fmt::format("{}", p.*member); };
  return k;
}

}  // namespace drivevp
