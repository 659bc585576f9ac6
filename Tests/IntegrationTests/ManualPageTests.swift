import Foundation
import Testing

extension Integration {
    /// The manual pages in `docs/man`: `man` renders each with no warning; each has the sections a reader looks
    /// for; and each names every flag and subcommand that the program's `--help` shows, and no other, so a page
    /// cannot drift from its program. (`docs/man/generate.sh` writes netactivity's again after a change.)
    @Suite("Manual pages")
    struct ManualPageTests {
        struct Page: CustomTestStringConvertible, Sendable {
            let file: String
            let program: String
            var testDescription: String { file }
            var url: URL { Paths.repository.appendingPathComponent("docs/man/\(file)") }
        }

        static let pages = [
            Page(file: "netactivityd.8", program: "netactivityd"),
            Page(file: "netactivity.1", program: "netactivity"),
            Page(file: "netactivity-tray.1", program: "netactivity-tray"),
        ]

        @Test(arguments: pages)
        func manRendersItWithoutAWarning(page: Page) throws {
            let result = try runTool("man", ["--warnings", "-l", page.url.path], bus: nil,
                                     environment: ["MANWIDTH": "80"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS", "FILES", "EXAMPLES", "SEE ALSO"] {
                #expect(result.stdout.split(separator: "\n").contains { $0 == section }, "no \(section) section")
            }
        }

        @Test(arguments: pages)
        func itNamesEveryFlagAndSubcommandOfHelpAndNoOther(page: Page) throws {
            let help = try Help(program: page.program)
            // Wide enough that no line is broken, so no flag is hyphenated across two.
            let rendered = try runTool("man", ["-l", page.url.path], bus: nil,
                                       environment: ["MANWIDTH": "1000"]).stdout
            for flag in help.flags {
                let asAWord = #"(^|[\s\[(|,])\#(flag)($|[\s\]),.|=])"#
                #expect(rendered.range(of: asAWord, options: .regularExpression) != nil,
                        "\(flag) is in --help but not in \(page.file)")
            }
            for subcommand in help.subcommands {
                #expect(rendered.range(of: #"(?m)^\s+\#(subcommand)\s"#, options: .regularExpression) != nil,
                        "the subcommand \(subcommand) is not in \(page.file)")
            }

            let source = try String(contentsOf: page.url, encoding: .utf8)
            let listed = ManualSource(source)
            #expect(!listed.flags.isEmpty)
            #expect(listed.flags.subtracting(help.flags).isEmpty,
                    "\(page.file) lists flags that --help does not show: \(listed.flags.subtracting(help.flags))")
            #expect(listed.subcommands.subtracting(help.subcommands + ["help"]).isEmpty,
                    "\(page.file) lists subcommands that --help does not: \(listed.subcommands)")
        }
    }
}

/// What a program's `--help` shows: its flags, its subcommands' flags, and its subcommands.
private struct Help {
    var flags: Set<String> = []
    var subcommands: [String] = []

    init(program: String) throws {
        let executable = Paths.products.appendingPathComponent(program).path
        let root = try runTool(executable, ["--help"], bus: nil)
        try #require(root.status == 0, "\(root)")
        subcommands = Self.subcommands(in: root.stdout)
        flags = Self.flags(in: root.stdout)
        for subcommand in subcommands {
            let text = try runTool(executable, [subcommand, "--help"], bus: nil)
            try #require(text.status == 0, "\(text)")
            flags.formUnion(Self.flags(in: text.stdout))
        }
        try #require(!flags.isEmpty, "no flags read from \(program) --help")
    }

    /// The names in an option row, `  -h, --help   Show …` or `  --address <address>   Use …`; wrapped help text
    /// is indented further and never starts a row.
    static func flags(in help: String) -> Set<String> {
        var flags: Set<String> = []
        for line in help.split(separator: "\n") where line.hasPrefix("  -") {
            let names = line.dropFirst(2).components(separatedBy: "  ")[0]
            for match in names.matches(of: /(?:^|[ ,])(--?[A-Za-z][A-Za-z0-9-]*)/) { flags.insert(String(match.1)) }
        }
        return flags
    }

    /// ArgumentParser's `SUBCOMMANDS:` rows.
    static func subcommands(in help: String) -> [String] {
        guard let section = help.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first else { return [] }
        return section.split(separator: "\n").compactMap { line in
            line.wholeMatch(of: #/ {2}([a-z][a-z-]*)\s.*/#).map { String($0.1) }
        }
    }
}

/// The items of a page's tagged lists, read from its mdoc source: `.It Fl h , Fl -help` lists `-h` and `--help`,
/// `.It Em run` the subcommand `run`.
private struct ManualSource {
    var flags: Set<String> = []
    var subcommands: Set<String> = []

    init(_ source: String) {
        for line in source.split(separator: "\n") where line.hasPrefix(".It ") {
            let words = line.split(separator: " ").dropFirst()
            if words.first == "Em", let name = words.dropFirst().first { subcommands.insert(String(name)) }
            var inFlag = false
            for word in words {
                if word == "Fl" { inFlag = true; continue }
                if word.first?.isUppercase == true, word.count == 2 { inFlag = false; continue }  // Ar, Ns, …
                if inFlag, word.wholeMatch(of: /-?[A-Za-z][A-Za-z0-9-]*/) != nil { flags.insert("-" + word) }
            }
        }
    }
}
