import Testing

@testable import MediabenchCLI

/// The declarations the parser tests run against: one of each kind.
private enum Sample {
    enum Shape: String, CaseIterable, Sendable { case circle, square }

    static let quick = Flag("quick", help: "")
    static let runs = Option("runs", "N", .positiveInteger, help: "")
    static let loss = Option("loss", "PERCENT", .number(in: 0...100), help: "")
    static let seed = Option("seed", "N", .unsignedInteger, help: "")
    static let level = Option("level", "L", .integer(in: -3...3), help: "")
    static let format = Option("format", "F", .choice(["text", "json"]), help: "")
    static let shape = Option("shape", "S", ArgumentType<Shape>.oneOf, help: "")
    static let trace = Option("trace", "FILE", .string, repeats: true, help: "")
    static let input = Option("input", "FILE", .string, required: true, help: "")
    static let first = Positional("FIRST", .string, arity: .optional, help: "")
    static let rest = Positional("REST", .string, arity: .zeroOrMore, help: "")

    static let declarations: [any ArgumentDeclaring] = [quick, runs, loss, seed, level, format, shape, trace, input, first, rest]

    static func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try ArgumentParser.parse(arguments, declarations: declarations.map(\.declaration))
    }

    /// The message of the usage error `arguments` raise, or `nil` when they parse.
    static func error(_ arguments: [String]) -> String? {
        do {
            _ = try parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }
}

@Suite struct ArgumentParserTests {
    @Test func emptyArgumentsReadAsDefaults() throws {
        let parsed = try Sample.parse([])
        #expect(parsed[Sample.quick] == false)
        #expect(parsed[Sample.runs] == nil)
        #expect(parsed.all(Sample.trace).isEmpty)
        #expect(parsed[Sample.first] == nil)
        #expect(parsed.all(Sample.rest).isEmpty)
    }

    @Test func readsEveryKindWithTypedValues() throws {
        let parsed = try Sample.parse([
            "a", "--quick", "--runs", "7", "--loss=2.5", "--seed", "18446744073709551615", "--level", "-3",
            "--format", "json", "--shape", "square", "--trace", "x.csv", "b", "--trace=y.csv", "c",
        ])
        #expect(parsed[Sample.quick])
        #expect(parsed[Sample.runs] == 7)
        #expect(parsed[Sample.loss] == 2.5)
        #expect(parsed[Sample.seed] == UInt64.max)
        #expect(parsed[Sample.level] == -3)
        #expect(parsed[Sample.format] == "json")
        #expect(parsed[Sample.shape] == .square)
        #expect(parsed.all(Sample.trace) == ["x.csv", "y.csv"])
        #expect(parsed[Sample.first] == "a")
        #expect(parsed.all(Sample.rest) == ["b", "c"])
    }

    @Test func doubleDashEndsOptionsAndSingleDashIsPositional() throws {
        let parsed = try Sample.parse(["-", "--", "--quick", "--runs"])
        #expect(parsed[Sample.quick] == false)
        #expect(parsed[Sample.first] == "-")
        #expect(parsed.all(Sample.rest) == ["--quick", "--runs"])
    }

    @Test func anOptionValueMayLookLikeANegativeNumberOrBeEmpty() throws {
        #expect(try Sample.parse(["--level", "-2"])[Sample.level] == -2)
        #expect(try Sample.parse(["--input="])[Sample.input] == "")
    }

    @Test func requiredOptionIsReadOrNamedWhenMissing() throws {
        #expect(try Sample.parse(["--input", "in.wav"]).required(Sample.input) == "in.wav")
        #expect(throws: UsageError("missing --input FILE")) {
            try Sample.parse([]).required(Sample.input)
        }
    }

    @Test(arguments: [
        (["--fast"], "unknown option '--fast'"),
        (["--fast=1"], "unknown option '--fast'"),
        (["-q"], "unknown option '-q'"),
        (["--runs", "x"], "--runs expects a positive integer, got 'x'"),
        (["--runs=0"], "--runs expects a positive integer, got '0'"),
        (["--runs", "-4"], "--runs expects a positive integer, got '-4'"),
        (["--runs", "99999999999999999999"], "--runs expects a positive integer, got '99999999999999999999'"),
        (["--runs"], "--runs needs a value (N)"),
        (["--runs", "--quick"], "--runs needs a value (N)"),
        (["--runs", "2", "--runs", "3"], "--runs given more than once"),
        (["--quick=yes"], "--quick takes no value"),
        (["--loss", "100.5"], "--loss expects a number from 0 to 100, got '100.5'"),
        (["--loss", "nan"], "--loss expects a number from 0 to 100, got 'nan'"),
        (["--seed", "-1"], "--seed expects a non-negative integer, got '-1'"),
        (["--level", "4"], "--level expects an integer from -3 to 3, got '4'"),
        (["--format", "xml"], "--format expects text or json, got 'xml'"),
        (["--shape", "Circle"], "--shape expects circle or square, got 'Circle'"),
    ])
    func usageErrorsNameTheFlagAndValue(arguments: [String], message: String) {
        #expect(Sample.error(arguments) == message)
    }

    @Test func positionalErrorsNameThePlaceholder() {
        let one = Positional("FILE", .string, help: "")
        let suites = Positional("SUITE", .choice(["rtp", "srtp", "g711"]), arity: .oneOrMore, help: "")
        func error(_ declarations: [any ArgumentDeclaring], _ arguments: [String]) -> String? {
            do {
                _ = try ArgumentParser.parse(arguments, declarations: declarations.map(\.declaration))
                return nil
            } catch {
                return error.message
            }
        }
        #expect(error([one], []) == "missing FILE")
        #expect(error([one], ["a", "b"]) == "unexpected argument 'b'")
        #expect(error([], ["a"]) == "unexpected argument 'a'")
        #expect(error([suites], []) == "missing SUITE")
        #expect(error([suites], ["rtp", "opus"]) == "SUITE expects rtp, srtp or g711, got 'opus'")
        #expect(error([suites], ["rtp", "g711"]) == nil)
    }

    @Test func usageSyntaxShowsOptionalityRepetitionAndChoices() {
        #expect(Sample.quick.declaration.usageSyntax == "[--quick]")
        #expect(Sample.runs.declaration.usageSyntax == "[--runs N]")
        #expect(Sample.format.declaration.usageSyntax == "[--format text|json]")
        #expect(Sample.trace.declaration.usageSyntax == "[--trace FILE…]")
        #expect(Sample.input.declaration.usageSyntax == "--input FILE")
        #expect(Sample.rest.declaration.usageSyntax == "[REST…]")
    }
}
