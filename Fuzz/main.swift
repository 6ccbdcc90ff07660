// libFuzzer entry points, one per parser. See Fuzz/README.md.
//
// A normal `swift build` compiles this file without FUZZING and the tool only explains how to
// build it; scripts/fuzz.sh builds it with -DFUZZING, coverage instrumentation and
// AddressSanitizer, and links libFuzzer's driver, which `main` below calls.
#if FUZZING
    import Foundation

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // libFuzzer's C entry point, under its own name.
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    /// The target chosen on the command line; set once before the driver starts.
    nonisolated(unsafe) var selectedTarget: FuzzTarget?

    let arguments = CommandLine.arguments
    guard arguments.count >= 2, let target = FuzzTarget.all.first(where: { $0.name == arguments[1] }) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("usage: mediafuzz TARGET [libFuzzer options]\ntargets: \(names)\n".utf8))
        exit(2)
    }
    selectedTarget = target

    // libFuzzer sees the program name followed by the options after the target name.
    var driverArguments = [arguments[0]] + arguments.dropFirst(2)
    var cArguments: [UnsafeMutablePointer<CChar>?] = driverArguments.map { strdup($0) } + [nil]
    var argc = Int32(driverArguments.count)
    let status = cArguments.withUnsafeMutableBufferPointer { buffer -> Int32 in
        var argv = buffer.baseAddress
        return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            let bytes = UnsafeRawBufferPointer(start: data, count: size)
            selectedTarget?.body(bytes)
            return 0
        }
    }
    exit(status)
#else
    print("mediafuzz must be built by scripts/fuzz.sh (it needs libFuzzer and -DFUZZING).")
#endif
