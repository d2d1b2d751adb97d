// Unit tests of FlatMap (firmware/flat_map.h), the firmware queues' open-addressing map: random
// inserts, look-ups and erases checked against std::map, with keys that collide in the table.
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>

#include "firmware/flat_map.h"

namespace drivevp {
namespace {

TEST_CASE("FlatMap: random inserts, look-ups and erases agree with std::map") {
  std::mt19937_64 rng(7);
  for (const std::uint64_t key_range : {std::uint64_t{40}, std::uint64_t{5000}, ~std::uint64_t{0}}) {
    FlatMap<std::uint64_t> m;
    std::map<std::uint64_t, std::uint64_t> ref;
    for (int step = 0; step < 200000; ++step) {
      // Keys spaced by a power of two collide in the table's home slots.
      const std::uint64_t k = key_range == 40 ? (rng() % key_range) << 20 : rng() % key_range;
      switch (rng() % 4) {
        case 0:
          CHECK(m.insert(k, step) == ref.emplace(k, step).second);
          break;
        case 1:
          m[k] = step;
          ref[k] = step;
          break;
        case 2:
          CHECK(m.erase(k) == (ref.erase(k) == 1));
          break;
        default: {
          const std::uint64_t* v = m.find(k);
          const auto it = ref.find(k);
          REQUIRE((v != nullptr) == (it != ref.end()));
          if (v) CHECK(*v == it->second);
        }
      }
      REQUIRE(m.size() == ref.size());
    }
    for (const auto& [k, v] : ref) CHECK(m.at(k) == v);
  }
}

TEST_CASE("FlatMap: at() of a missing key throws; an empty map finds nothing") {
  FlatMap<int> m;
  CHECK(m.empty());
  CHECK(m.find(3) == nullptr);
  CHECK_FALSE(m.erase(3));
  CHECK_THROWS_AS(m.at(3), std::out_of_range);
  m[3] = 4;
  CHECK(m.at(3) == 4);
  CHECK(m.contains(3));
  CHECK_FALSE(m.contains(4));
}

}  // namespace
}  // namespace drivevp
