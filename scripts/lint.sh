#!/usr/bin/env bash
# The style check of the test command: swift-format's lint rules (.swift-format) over every
# Swift file, any finding an error.
#
# What is checked: the rules enabled in .swift-format (names in lowerCamelCase, `///` for
# documentation comments, `for` instead of `forEach`, grouped numeric literals, no access level
# on extensions, shorthand type names, ...). Rules the tree does not follow everywhere and that would need a mass edit are
# disabled there: OrderedImports, UseLetInEveryBoundCaseVariable, DoNotUseSemicolons,
# OneVariableDeclarationPerLine, OneCasePerLine.
#
# The pretty-printer's layout findings (indentation, line length, spacing, trailing commas)
# count too: run `swift-format format -i --parallel -r Sources Tests Benchmarks Examples Fuzz Package.swift`
# to fix them.
set -euo pipefail
cd "$(dirname "$0")/.."

findings=$(swift-format lint --strict --parallel -r Sources Tests Benchmarks Examples Fuzz Package.swift 2>&1 || true)
if [[ -n $findings ]]; then
    echo "$findings" >&2
    echo "lint: $(grep -c ': error: ' <<<"$findings" || true) swift-format findings" >&2
    exit 1
fi
echo "lint: no swift-format findings"
