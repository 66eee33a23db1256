import Testing
import TestSupport

/// A mistyped command is named as unknown, with the nearest commands, as git does; it is never
/// taken for arguments of the default command.
@Suite struct CommandNameTests {
    @Test func aTypoSuggestsTheNearestCommand() throws {
        let fixture = try Fixture()
        let typo = try fixture.todosync("stauts", expectStatus: 64)
        #expect(
            typo.stderr
                == "todosync: error: 'stauts' is not a todosync command\nhint: the most similar command is 'status'; todosync --help lists the commands\n"
        )
        #expect(typo.stdout.isEmpty)
        let two = try fixture.todosync("redu", expectStatus: 64)
        #expect(two.stderr.contains("hint: the most similar command is 'redo';"))
        let short = try fixture.todosync("un", expectStatus: 64)
        #expect(short.stderr.contains("hint: the most similar commands are 'mv', 'rm', 'undo';"))
        let far = try fixture.todosync("xyzzy", expectStatus: 64)
        #expect(
            far.stderr
                == "todosync: error: 'xyzzy' is not a todosync command\nhint: todosync --help lists the commands\n")
    }

    /// Every command `--help` lists is known by its name (each names itself in its
    /// configuration; one that did not would be refused as a typo) and runs its own help.
    @Test func everyListedCommandIsKnownByItsName() throws {
        let fixture = try Fixture()
        let help = try fixture.todosync("--help").stdout
        let listed =
            help.components(separatedBy: "SUBCOMMANDS:").last?.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard line.hasPrefix("  "), !line.hasPrefix("   "), !line.contains("See '"), let first = words.first
                else { return nil }
                return String(first)
            } ?? []
        #expect(listed.count > 20, "\(listed)")
        for name in listed {
            let result = try fixture.todosync(name, "--help")
            #expect(result.stdout.contains("USAGE: todosync \(name)"), "\(name): \(result.stderr)")
        }
    }

    @Test func helpForAnUnknownCommandIsAnError() throws {
        let fixture = try Fixture()
        let bogus = try fixture.todosync("help", "sattus", expectStatus: 64)
        #expect(bogus.stderr.hasPrefix("todosync: error: no help for 'sattus': it is not a todosync command\n"))
        #expect(bogus.stderr.contains("'status'"))
        let known = try fixture.todosync("help", "watch")
        #expect(known.stdout.contains("USAGE: todosync watch"))
        // Options and known commands are left to the parser.
        #expect(try fixture.todosync("status").status == 0)
        #expect(try fixture.todosync("--version").stdout == "0.1.0\n")
    }

    /// One voice: a command line todosync cannot read is told as every error is, with the usage
    /// and where to read more, exit 64; an empty or two-line title is such a command line.
    @Test func aCommandLineItCannotReadIsToldInOneVoice() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] Milk\n")
        try fixture.todosync()
        for (arguments, said) in [
            (["edit", "Milk", "--priority", "bogus"], "todosync: error: unknown priority \"bogus\""),
            (["add", ""], "todosync: error: a title cannot be empty"),
            (["add", "Two\nlines"], "todosync: error: a title is one line"),
            (["edit", "Milk", "--title", " "], "todosync: error: a title cannot be empty"),
            (["done"], "todosync: error: "),
            (["list", "--bogus"], "todosync: error: "),
        ] {
            let result = try run(todosyncBinary, arguments, in: fixture.path)
            #expect(result.status == 64, "\(arguments): \(result.status)")
            #expect(result.stderr.hasPrefix(said), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("\nusage: todosync \(arguments[0])"), "\(result.stderr)")
            #expect(
                result.stderr.hasSuffix("hint: todosync \(arguments[0]) --help says what each option takes\n"),
                "\(result.stderr)")
            #expect(!result.stderr.contains("Error:"))
        }
        // Help is no error.
        let help = try fixture.todosync("add", "--help")
        #expect(help.stdout.contains("USAGE: todosync add") && help.stderr.isEmpty)
        #expect(try fixture.read("TODO.md").hasPrefix("- [ ] Milk <!-- id: "))
    }
}
