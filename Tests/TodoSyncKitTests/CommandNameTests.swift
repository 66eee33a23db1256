import Testing
import TestSupport

/// A mistyped command is named as unknown, with the nearest commands, as git does; it is never
/// taken for arguments of the default command.
@Suite struct CommandNameTests {
    @Test func aTypoSuggestsTheNearestCommand() throws {
        let fixture = try Fixture()
        let typo = try fixture.todosync("stauts", expectStatus: 64)
        #expect(typo.stderr == "todosync: 'stauts' is not a todosync command. See 'todosync --help'.\n\nThe most similar command is\n\tstatus\n")
        #expect(typo.stdout.isEmpty)
        let two = try fixture.todosync("redu", expectStatus: 64)
        #expect(two.stderr.hasSuffix("The most similar command is\n\tredo\n"))
        let short = try fixture.todosync("un", expectStatus: 64)
        #expect(short.stderr.hasSuffix("The most similar commands are\n\tmv\n\trm\n\tundo\n"))
        let far = try fixture.todosync("xyzzy", expectStatus: 64)
        #expect(far.stderr == "todosync: 'xyzzy' is not a todosync command. See 'todosync --help'.\n")
    }

    @Test func helpForAnUnknownCommandIsAnError() throws {
        let fixture = try Fixture()
        let bogus = try fixture.todosync("help", "sattus", expectStatus: 64)
        #expect(bogus.stderr.hasPrefix("todosync: no help for 'sattus': it is not a todosync command."))
        #expect(bogus.stderr.contains("\tstatus"))
        let known = try fixture.todosync("help", "watch")
        #expect(known.stdout.contains("USAGE: todosync watch"))
        // Options and known commands are left to the parser.
        #expect(try fixture.todosync("status").status == 0)
        #expect(try fixture.todosync("--version").stdout == "0.1.0\n")
    }
}
