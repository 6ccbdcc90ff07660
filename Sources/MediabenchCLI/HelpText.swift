/// Renders `--help` pages from declarations, so help never disagrees with the parser.
enum HelpText {
    /// The width help text is wrapped to.
    static let width = 80

    /// The help page of `command`, run as `mediabench NAME`.
    static func page(for command: any Command) -> String {
        let declarations = command.arguments.map(\.declaration)
        let usagePrefix = "USAGE: mediabench \(command.name) "
        let usage = fill(command.arguments.map(\.declaration.usageSyntax), indent: usagePrefix.count)
        var text = usagePrefix + usage + "\n\n" + wrap(command.summary) + "\n"
        if !command.discussion.isEmpty {
            text += "\n" + wrap(command.discussion) + "\n"
        }
        let positionals = declarations.filter { if case .positional = $0.kind { true } else { false } }
        let options = declarations.filter { if case .positional = $0.kind { false } else { true } }
        if !positionals.isEmpty {
            text += "\nARGUMENTS:\n" + table(positionals.map { ($0.label, $0.help) })
        }
        text += "\nOPTIONS:\n" + table(options.map { ($0.label, $0.help) } + [("-h, --help", "Show this help.")])
        return text
    }

    /// Two aligned columns, indented, the second wrapped; a name too long for the first
    /// column puts its help on the next line.
    static func table(_ rows: [(String, String)]) -> String {
        let column = min((rows.map(\.0.count).max() ?? 0) + 4, 30)
        return rows.map { name, help in
            let start = name.count + 4 <= column ? spaces(column - name.count - 2) : "\n" + spaces(column)
            return "  " + name + start + fill(words(help), indent: column) + "\n"
        }.joined()
    }

    /// `text` with its prose lines wrapped; lines starting with a space (tables) and blank
    /// lines are kept as they are.
    static func wrap(_ text: String) -> String {
        var wrapped = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(" ") ? String(line) : fill(words(String(line)), indent: 0)
        }
        .joined(separator: "\n")
        while wrapped.hasSuffix("\n") { wrapped.removeLast() }
        return wrapped
    }

    /// `items` joined by spaces into lines of at most ``width`` columns (an item longer than a
    /// line gets a line of its own), continuation lines indented by `indent`; the first line
    /// is assumed to start at column `indent` too.
    private static func fill(_ items: [String], indent: Int) -> String {
        var lines: [String] = []
        var current = ""
        for item in items {
            if !current.isEmpty, indent + current.count + 1 + item.count > width {
                lines.append(current)
                current = ""
            }
            current += current.isEmpty ? item : " " + item
        }
        return (lines + [current]).joined(separator: "\n" + spaces(indent))
    }

    private static func words(_ text: String) -> [String] {
        text.split(separator: " ").map(String.init)
    }

    private static func spaces(_ count: Int) -> String {
        String(repeating: " ", count: count)
    }
}
