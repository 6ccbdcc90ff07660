/// Renders `--help` pages from declarations, so help never disagrees with the parser.
enum HelpText {
    /// The help page of `command`, run as `mediabench NAME`.
    static func page(for command: any Command) -> String {
        let declarations = command.arguments.map(\.declaration)
        var text = "USAGE: \(usageLine(for: command))\n\n\(wrap(command.summary))\n"
        if !command.discussion.isEmpty {
            text += "\n\(wrap(command.discussion))\n"
        }
        let positionals = declarations.filter { if case .positional = $0.kind { true } else { false } }
        let options = declarations.filter { if case .positional = $0.kind { false } else { true } }
        if !positionals.isEmpty {
            text += "\nARGUMENTS:\n" + table(positionals.map { ($0.label, $0.help) })
        }
        text += "\nOPTIONS:\n" + table(options.map { ($0.label, $0.help) } + [("-h, --help", "Show this help.")])
        return text
    }

    /// `mediabench bench [SUITE…] [--quick] …`.
    static func usageLine(for command: any Command) -> String {
        (["mediabench", command.name] + command.arguments.map(\.declaration.usageSyntax)).joined(separator: " ")
    }

    /// Two aligned columns, indented.
    static func table(_ rows: [(String, String)]) -> String {
        let width = min((rows.map(\.0.count).max() ?? 0) + 2, 28)
        return rows.map { name, help in
            // A name too long for the column gets the help on the next line.
            let gap = name.count + 2 <= width ? spaces(width - name.count) : "\n  " + spaces(width)
            return "  " + name + gap + help + "\n"
        }.joined()
    }

    private static func spaces(_ count: Int) -> String {
        String(repeating: " ", count: count)
    }

    /// `text` with its prose lines wrapped at `width` columns; lines starting with a space
    /// (tables) and blank lines are kept as they are.
    static func wrap(_ text: String, width: Int = 80) -> String {
        var wrapped = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.count > width, !line.hasPrefix(" ") else { return String(line) }
            var lines: [String] = []
            var current = ""
            for word in line.split(separator: " ") {
                if !current.isEmpty, current.count + 1 + word.count > width {
                    lines.append(current)
                    current = ""
                }
                current += current.isEmpty ? String(word) : " " + word
            }
            return (lines + [current]).joined(separator: "\n")
        }
        .joined(separator: "\n")
        while wrapped.hasSuffix("\n") { wrapped.removeLast() }
        return wrapped
    }
}
