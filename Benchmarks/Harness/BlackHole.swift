/// Consumes a benchmark's result so the optimizer cannot delete the work that produced it.
///
/// `@_optimize(none)` keeps the call opaque: measured on this toolchain, an empty
/// `@inline(never)` generic sink was specialised and removed (0.0 ns results), this one was not.
@_optimize(none)
public func blackHole<Value>(_ value: Value) {}

/// Returns `value` through a call the optimizer cannot see into, so a benchmark's input is not
/// constant-folded or hoisted out of the measured loop.
@_optimize(none)
public func identity<Value>(_ value: Value) -> Value {
    value
}
