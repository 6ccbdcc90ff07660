// swift-tools-version: 6.2
// A Swift RTP media engine and codec library for Linux. See README.md and ../shared/DESIGN.md.
import PackageDescription

/// Every Swift target builds in Swift 6 language mode with warnings treated as errors.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

/// A system library found through pkg-config and installed from Debian's packages.
func systemLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "MediaEngine",
    products: [
        .library(name: "RTP", targets: ["RTP"]),
        .library(name: "SDP", targets: ["SDP"]),
        .library(name: "Codecs", targets: ["Codecs"]),
        .library(name: "Jitter", targets: ["Jitter"]),
        .library(name: "NetworkModel", targets: ["NetworkModel"]),
        .library(name: "Capture", targets: ["Capture"]),
        .library(name: "QualityMetrics", targets: ["QualityMetrics"]),
        .library(name: "PlayoutLab", targets: ["PlayoutLab"]),
        .library(name: "CaptureAnalysis", targets: ["CaptureAnalysis"]),
        .library(name: "AudioDevice", targets: ["AudioDevice"]),
        .library(name: "SecureTransport", targets: ["SecureTransport"]),
        .library(name: "MediaSession", targets: ["MediaSession"]),
        .library(name: "SIP", targets: ["SIP"]),
        .executable(name: "mediabench", targets: ["mediabench"]),
    ],
    targets: [
        // C libraries, wrapped once each by the module that owns them.
        systemLibrary("CSRTP", pkgConfig: "libsrtp2", apt: "libsrtp2-dev"),
        systemLibrary("COpus", pkgConfig: "opus", apt: "libopus-dev"),
        systemLibrary("CSpeexDSP", pkgConfig: "speexdsp", apt: "libspeexdsp-dev"),
        systemLibrary("CALSA", pkgConfig: "alsa", apt: "libasound2-dev"),
        systemLibrary("CPcap", pkgConfig: "libpcap", apt: "libpcap-dev"),
        systemLibrary("COpenSSL", pkgConfig: "openssl", apt: "libssl-dev"),
        .target(name: "CMediaShims", dependencies: ["COpus"]),
        .target(name: "CNetShims"),
        .target(name: "Locking", swiftSettings: strict),
        // The one error type of the socket and ALSA wrappers (TransportError, AudioDeviceError).
        .target(name: "SystemCalls", swiftSettings: strict),

        // The library, lowest module first.
        .target(name: "RTP", dependencies: ["COpenSSL"], swiftSettings: strict),
        // SDP text (RFC 8866): one parser for the session's offer/answer and the capture analyzer.
        .target(name: "SDP", dependencies: ["RTP"], swiftSettings: strict),
        .target(name: "Codecs", dependencies: ["COpus", "CSpeexDSP", "CMediaShims"], swiftSettings: strict),
        // On RTP for its one sequence/timestamp unwrapper (the rtpdump reader's).
        .target(name: "NetworkModel", dependencies: ["RTP"], swiftSettings: strict),
        // On QualityMetrics for G.107's delay impairment, which prices the conversational target.
        .target(name: "Jitter", dependencies: ["RTP", "Codecs", "QualityMetrics", "Locking"], swiftSettings: strict),
        .target(name: "Capture", dependencies: ["CPcap"], swiftSettings: strict),
        .target(name: "QualityMetrics", dependencies: ["RTP", "Locking"], swiftSettings: strict),
        // The lab: playout simulation, scoring and replay of recorded arrivals (never linked by a softphone).
        .target(name: "PlayoutLab", dependencies: ["RTP", "Codecs", "Jitter", "NetworkModel"], swiftSettings: strict),
        // The offline analyzer of captures and its report renderers (links libpcap through Capture).
        .target(
            name: "CaptureAnalysis",
            dependencies: ["RTP", "SDP", "Codecs", "Jitter", "PlayoutLab", "QualityMetrics", "Capture", "Locking"],
            swiftSettings: strict
        ),
        .target(name: "AudioDevice", dependencies: ["CALSA", "SystemCalls"], swiftSettings: strict),
        // DTLS-SRTP (certificates, fingerprints, key export) and ICE-lite (STUN, consent) over OpenSSL.
        .target(name: "SecureTransport", dependencies: ["RTP", "COpenSSL"], swiftSettings: strict),
        .target(
            name: "MediaSession",
            dependencies: ["RTP", "SDP", "Codecs", "Jitter", "QualityMetrics", "AudioDevice", "SecureTransport", "SystemCalls", "CNetShims", "Locking"],
            swiftSettings: strict
        ),
        // A minimal RFC 3261 user agent over UDP and the seeds' call model.
        .target(name: "SIP", dependencies: ["MediaSession", "RTP", "Codecs", "COpenSSL", "Locking"], swiftSettings: strict),

        // A softphone's audio path on MediaSession alone: the how-to's code and the proof that
        // linking MediaSession pulls in no libpcap (scripts/check-softphone-links.sh).
        .executableTarget(name: "softphone-example", dependencies: ["MediaSession"], path: "Examples/Softphone", swiftSettings: strict),

        // libsrtp2 behind our SRTP types: the independent oracle of the tests and fuzz targets and the
        // bench's in-process peer, never linked by the library.
        .target(name: "SRTPReference", dependencies: ["CSRTP", "RTP"], path: "Tests/SRTPReference", swiftSettings: strict),
        // The physical reference of the SRTP bench: the same transform as a plain C loop on OpenSSL EVP.
        .target(name: "COpenSSLSRTPLoop", dependencies: ["COpenSSL"], path: "Benchmarks/OpenSSLSRTPLoop"),

        // The command-line tool and its benchmark harness (never part of the library).
        .target(name: "CAllocationCounter", path: "Benchmarks/AllocationCounter"),
        .target(
            name: "BenchmarkHarness",
            dependencies: ["CAllocationCounter"],
            path: "Benchmarks/Harness",
            swiftSettings: strict
        ),
        .target(
            name: "BenchmarkSuites",
            dependencies: [
                "SRTPReference", "COpenSSLSRTPLoop",  // the SRTP suite's in-process peers
                "BenchmarkHarness", "RTP", "Codecs", "Jitter", "NetworkModel", "PlayoutLab", "Capture",
                "QualityMetrics", "CaptureAnalysis", "MediaSession",
            ],
            path: "Benchmarks/Suites",
            swiftSettings: strict
        ),
        .target(
            name: "MediabenchCLI",
            dependencies: [
                "BenchmarkHarness", "BenchmarkSuites", "RTP", "Codecs", "Jitter", "NetworkModel",
                "PlayoutLab", "Capture", "QualityMetrics", "CaptureAnalysis", "AudioDevice", "MediaSession", "SecureTransport", "SIP",
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "mediabench", dependencies: ["MediabenchCLI"], swiftSettings: strict),

        // libFuzzer entry points; built for real only by scripts/fuzz.sh (see Fuzz/README.md).
        .executableTarget(
            name: "mediafuzz",
            dependencies: [
                "RTP", "SRTPReference", "Codecs", "Jitter", "Capture", "QualityMetrics", "CaptureAnalysis", "MediaSession", "SecureTransport", "SIP",
            ],
            path: "Fuzz",
            exclude: ["README.md"],
            swiftSettings: strict
        ),

        // Tests.
        .target(name: "TestSupport", dependencies: ["BenchmarkHarness"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "RTPTests", dependencies: ["RTP", "SRTPReference", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "CodecsTests", dependencies: ["Codecs", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "NetworkModelTests", dependencies: ["NetworkModel", "TestSupport"], swiftSettings: strict),
        // JitterTests drive the buffer with PlayoutLab's synthetic decoder and simulator.
        .testTarget(name: "JitterTests", dependencies: ["Jitter", "PlayoutLab", "RTP", "Codecs", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "PlayoutLabTests", dependencies: ["PlayoutLab", "Jitter", "Codecs", "NetworkModel", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "QualityMetricsTests",
            dependencies: ["QualityMetrics", "RTP", "TestSupport"],
            exclude: ["Scripts"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CaptureAnalysisTests",
            dependencies: ["CaptureAnalysis", "QualityMetrics", "PlayoutLab", "Capture", "Codecs", "RTP", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(name: "AudioDeviceTests", dependencies: ["AudioDevice", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "SecureTransportTests", dependencies: ["SecureTransport", "RTP", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "MediaSessionTests", dependencies: ["MediaSession", "SecureTransport", "Locking", "BenchmarkHarness", "TestSupport"], swiftSettings: strict
        ),
        .testTarget(
            name: "SIPTests", dependencies: ["SIP", "MediaSession", "RTP", "Codecs", "Jitter", "BenchmarkHarness", "TestSupport"], swiftSettings: strict
        ),
        .testTarget(
            name: "MediabenchTests",
            dependencies: ["MediabenchCLI", "BenchmarkHarness", "BenchmarkSuites", "QualityMetrics", "TestSupport"],
            swiftSettings: strict
        ),
    ]
)
