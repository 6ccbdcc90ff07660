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
        .library(name: "Codecs", targets: ["Codecs"]),
        .library(name: "Jitter", targets: ["Jitter"]),
        .library(name: "NetworkModel", targets: ["NetworkModel"]),
        .library(name: "Capture", targets: ["Capture"]),
        .library(name: "QualityMetrics", targets: ["QualityMetrics"]),
        .library(name: "PlayoutLab", targets: ["PlayoutLab"]),
        .library(name: "CaptureAnalysis", targets: ["CaptureAnalysis"]),
        .library(name: "AudioDevice", targets: ["AudioDevice"]),
        .library(name: "MediaSession", targets: ["MediaSession"]),
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

        // The library, lowest module first.
        .target(name: "RTP", dependencies: ["COpenSSL"], swiftSettings: strict),
        .target(name: "Codecs", dependencies: ["COpus", "CSpeexDSP", "CMediaShims"], swiftSettings: strict),
        .target(name: "NetworkModel", swiftSettings: strict),
        .target(name: "Jitter", dependencies: ["RTP", "Codecs", "Locking"], swiftSettings: strict),
        .target(name: "Capture", dependencies: ["CPcap"], swiftSettings: strict),
        .target(name: "QualityMetrics", dependencies: ["RTP", "Locking"], swiftSettings: strict),
        // The lab: playout simulation, scoring and replay of recorded arrivals (never linked by a softphone).
        .target(name: "PlayoutLab", dependencies: ["RTP", "Codecs", "Jitter", "NetworkModel"], swiftSettings: strict),
        // The offline analyzer of captures and its report renderers (links libpcap through Capture).
        .target(
            name: "CaptureAnalysis",
            dependencies: ["RTP", "Codecs", "Jitter", "PlayoutLab", "QualityMetrics", "Capture"],
            swiftSettings: strict
        ),
        .target(name: "AudioDevice", dependencies: ["CALSA"], swiftSettings: strict),
        .target(
            name: "MediaSession",
            dependencies: ["RTP", "Codecs", "Jitter", "QualityMetrics", "AudioDevice", "CNetShims", "Locking"],
            swiftSettings: strict
        ),

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
                "PlayoutLab", "Capture", "QualityMetrics", "CaptureAnalysis", "AudioDevice", "MediaSession",
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "mediabench", dependencies: ["MediabenchCLI"], swiftSettings: strict),

        // libFuzzer entry points; built for real only by scripts/fuzz.sh (see Fuzz/README.md).
        .executableTarget(
            name: "mediafuzz",
            dependencies: [
                "RTP", "SRTPReference", "Codecs", "Jitter", "Capture", "QualityMetrics", "CaptureAnalysis", "MediaSession",
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
        .testTarget(name: "JitterTests", dependencies: ["Jitter", "PlayoutLab", "NetworkModel", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "QualityMetricsTests",
            dependencies: ["QualityMetrics", "CaptureAnalysis", "PlayoutLab", "Capture", "RTP", "TestSupport"],
            exclude: ["Scripts"],
            swiftSettings: strict
        ),
        .testTarget(name: "AudioDeviceTests", dependencies: ["AudioDevice", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "MediaSessionTests", dependencies: ["MediaSession", "Locking", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "MediabenchTests",
            dependencies: ["MediabenchCLI", "BenchmarkHarness", "BenchmarkSuites", "TestSupport"],
            swiftSettings: strict
        ),
    ]
)
