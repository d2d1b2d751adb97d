// The scheduling-policy interface of the firmware. Plain C++: no SystemC include, so that the
// same policies could be built for a controller and are unit-tested alone (ARCHITECTURE.md).
//
// A policy owns the queue of commands the firmware has accepted. Each time the media is free the
// controller asks it for a Decision. Policies that plan batches or whole rounds (N-step SCAN,
// FSCAN, the mixed-media round schedulers of paper 003, WRR-SCAN of paper 004) keep their plan
// internally and hand it out one command at a time; they may also ask the controller to move the
// arm without a transfer (SCAN's sweep to the edge) or to wait until a time (a round boundary).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "firmware/predictor.h"
#include "hw_models/param_keys.h"
#include "tlm_bus/command.h"

namespace drivevp {

/// What a policy sees when it decides.
struct SchedulingContext {
  Time now{0};                           ///< time at which the chosen request would start positioning
  MediaPosition position;                ///< where the media is (opaque; read through `predictor`)
  const Predictor* predictor = nullptr;  ///< the firmware's predictor of the device, never null
};

/// A policy's answer to "what next?".
struct Decision {
  enum class Kind {
    Serve,       ///< serve `command`, and `batch` in the same media access (removed from the queue)
    Reposition,  ///< move the media to `sweep_coordinate` (disk: that cylinder, same head) with no
                 ///< transfer, then ask again
    Idle,        ///< nothing to do until a new command arrives
    WaitUntil,   ///< ask again at `wake_at` (or earlier, when a command arrives)
  };
  Kind kind = Kind::Idle;
  Command command{};
  /// Serve only: further commands served in the same media access as `command` (a batch
  /// decision, paper 002 §4: requests at the same relative position in different regions of a
  /// MEMS device, up to the active-tip limit), in the order the controller completes them after
  /// `command`. Empty for a single command (every disk policy but the Linux elevators' merge chains,
  /// docs/models/firmware.md). The controller posts one
  /// completion entry per command, each with its own service log; a batch the device cannot serve
  /// in one access is an error of the media driver.
  std::vector<Command> batch;
  /// Reposition only: the sweep coordinate to move to (Predictor::sweep_coordinate; disk: cylinder).
  std::uint32_t sweep_coordinate = 0;
  Time wake_at{0};
  /// Predicted positioning time of `command` when the policy computed one (for the firmware
  /// waveform group and the predictor-accuracy study); negative when not computed.
  Time predicted_positioning{-1};

  static Decision serve(const Command& c, Time predicted = Time{-1}) {
    Decision d;
    d.kind = Kind::Serve;
    d.command = c;
    d.predicted_positioning = predicted;
    return d;
  }
  /// Serves `first` and `more` in one media access; `predicted` is `first`'s positioning.
  static Decision serve_batch(const Command& first, std::vector<Command> more, Time predicted = Time{-1}) {
    Decision d = serve(first, predicted);
    d.batch = std::move(more);
    return d;
  }
  static Decision reposition(std::uint32_t sweep_coordinate) {
    Decision d;
    d.kind = Kind::Reposition;
    d.sweep_coordinate = sweep_coordinate;
    return d;
  }
  static Decision idle() { return Decision{}; }
  static Decision wait_until(Time t) {
    Decision d;
    d.kind = Kind::WaitUntil;
    d.wake_at = t;
    return d;
  }
};

/// The interface every policy implements.
class SchedulingPolicy {
 public:
  virtual ~SchedulingPolicy() = default;
  /// The policy's name as in its paper (e.g. "C-LOOK", "SPTF").
  virtual std::string_view name() const = 0;
  /// A command the firmware accepted. `ctx` is the state at arrival.
  virtual void enqueue(const Command& command, const SchedulingContext& ctx) = 0;
  /// Picks what to do next. A Serve decision removes its command (and its batch) from the queue.
  virtual Decision next(const SchedulingContext& ctx) = 0;
  /// Commands queued and not yet handed out.
  virtual std::size_t pending() const = 0;
  /// Called when a served command completes (round managers and admission control use it).
  virtual void on_complete(const Command& /*command*/, const SchedulingContext& /*ctx*/) {}
};

/// One parameter of a policy, declared by the policy beside its factory: a typed key
/// (hw_models/param_keys.h: Number, Integer, Boolean or Enum, with range, choices, unit and a
/// description with its source) and its default. Its scenario key is `firmware.<name>`; the
/// scenario loader checks a value against the declaration before the policy sees it, and
/// `drivevp keys` lists it. A List is not available to policies (PolicyParams holds one number).
struct PolicyParameter : KeyDecl {
  /// The default in PolicyParams' encoding (below).
  double default_value = 0;

  /// A real number in [min, max] (inclusive).
  static PolicyParameter number(std::string name, double default_value, double min, double max, std::string unit,
                                std::string description);
  /// An integer in [min, max] (inclusive).
  static PolicyParameter integer(std::string name, double default_value, double min, double max, std::string unit,
                                 std::string description);
  /// true or false.
  static PolicyParameter boolean(std::string name, bool default_value, std::string description);
  /// One of `choices`; `default_choice` must be one of them (else std::invalid_argument).
  static PolicyParameter one_of(std::string name, std::vector<std::string> choices, const std::string& default_choice,
                                std::string description);
};

/// Parameter values by name; every parameter of the policy is present (defaults filled in).
/// Number and Integer: the value; Boolean: 0 or 1; Enum: the index of the choice in `choices`.
using PolicyParams = std::map<std::string, double, std::less<>>;

/// A registry entry: name as used in scenarios (`firmware.policy`), the paper name, parameters,
/// the device kinds it applies to and a factory.
struct PolicyInfo {
  std::string key;          ///< scenario value, lower case, e.g. "clook", "aged_sptf"
  std::string paper_name;   ///< e.g. "C-LOOK"
  std::string description;  ///< one line with the source
  std::vector<PolicyParameter> params;
  /// The factory: the policy for a device of kind `device_kind` (Predictor::device_kind(): "disk",
  /// "mems"), one of `devices`.
  std::function<std::unique_ptr<SchedulingPolicy>(const PolicyParams&, std::string_view device_kind)> make;
  /// Device kinds the policy applies to (a scenario pairing it with another is a configuration
  /// error naming both).
  std::vector<std::string> devices = {"disk", "mems"};
  bool applies_to(std::string_view device_kind) const;
};

/// All registered policies, in registration order (firmware/policy_registry.cpp).
const std::vector<PolicyInfo>& policy_registry();
/// The entry for `key`, or nullptr.
const PolicyInfo* find_policy(std::string_view key);
/// Builds the policy `key` for a device of kind `device_kind` with `overrides` on top of its
/// defaults. Throws std::invalid_argument for an unknown key, a policy that does not apply to the
/// device (naming both), an unknown parameter, a value outside [min, max] (Enum: [0, choices - 1];
/// Boolean: [0, 1]) or a fraction for an Integer, Boolean or Enum parameter.
std::unique_ptr<SchedulingPolicy> make_policy(std::string_view key, const PolicyParams& overrides = {},
                                              std::string_view device_kind = "disk");

}  // namespace drivevp
