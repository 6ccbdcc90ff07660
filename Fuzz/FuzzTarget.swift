/// One libFuzzer entry point: a name for the command line and a body that must never trap,
/// whatever bytes it is given.
struct FuzzTarget: Sendable {
    /// The name given on the command line (`mediafuzz NAME`).
    let name: String
    /// Feeds one input to the code under test.
    let body: @Sendable (UnsafeRawBufferPointer) -> Void

    /// Every target; each module's targets are listed in their own file in this folder.
    static var all: [FuzzTarget] {
        [selfCheck] + rtp + srtp + capture + codecs + opus + jitter + qualityMetrics + mediaSession + secureTransport + sip
    }

    /// A trivial target that checks the fuzz build itself.
    static let selfCheck = FuzzTarget(name: "self-check") { bytes in
        var sum: UInt8 = 0
        for byte in bytes { sum &+= byte }
        _ = sum
    }
}
