import Foundation
import Testing
import TestSupport
@testable import TodoSyncKit

/// Config and identity as git reads them (issue 31, point 5): `git var GIT_AUTHOR_IDENT` and
/// `GIT_COMMITTER_IDENT`, run in the same environment, are the witnesses.
@Suite struct ConfigAsGitTests {
    /// An environment with no identity variables and a home of its own (whose ~/.gitconfig
    /// names somebody else), plus `extra`.
    private func environment(home: Scratch, _ extra: [String: String?]) throws -> [String: String?] {
        try home.write(".gitconfig", "[user]\n\tname = Home User\n\temail = home@example.com\n")
        var environment: [String: String?] = [
            "HOME": home.path, "XDG_CONFIG_HOME": home.path + "/.config", "GIT_AUTHOR_NAME": nil,
            "GIT_AUTHOR_EMAIL": nil,
            "GIT_COMMITTER_NAME": nil, "GIT_COMMITTER_EMAIL": nil, "GIT_AUTHOR_DATE": nil, "GIT_COMMITTER_DATE": nil,
            "EMAIL": nil,
        ]
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// Commits a list with todosync in `environment` and checks the commit's author and
    /// committer against what git itself says, date included when the environment fixes it.
    private func expectCommitsAsGitWould(
        _ environment: [String: String?], fixture: Fixture, sameDate: Bool = false
    ) throws {
        try fixture.write("TODO.md", "- [ ] Item \(UUID().uuidString)\n")
        let result = try run(todosyncBinary, [], in: fixture.path, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("no user.name"), "\(result.stderr)")
        for (variable, format) in [("GIT_AUTHOR_IDENT", "%an <%ae> %ad"), ("GIT_COMMITTER_IDENT", "%cn <%ce> %cd")] {
            let expected = try run("/usr/bin/git", ["var", variable], in: fixture.path, environment: environment).stdout
            let committed = try run(
                "/usr/bin/git", ["log", "-1", "--date=raw", "--format=\(format)"], in: fixture.path
            ).stdout
            let person = { (line: String) in line.split(separator: ">").first.map(String.init) ?? "" }
            #expect(person(committed) == person(expected), "\(variable)")
            if sameDate { #expect(committed == expected, "\(variable)") }
        }
    }

    @Test func gitConfigGlobalAndItsIncludesNameTheAuthor() throws {
        let (home, other) = (Scratch(), Scratch())
        try other.write("identity.inc", "[user]\n\temail = included@example.com\n")
        try other.write("global", "[user]\n\tname = Global Name\n[include]\n\tpath = \(other.path)/identity.inc\n")
        let fixture = try Fixture()
        try expectCommitsAsGitWould(
            try environment(home: home, ["GIT_CONFIG_GLOBAL": other.path + "/global"]), fixture: fixture)
        #expect(try fixture.git("log", "-1", "--format=%an <%ae>") == "Global Name <included@example.com>\n")
    }

    @Test func includeIfByFolderNamesTheAuthor() throws {
        let home = Scratch()
        let fixture = try Fixture()
        try home.write("work.inc", "[user]\n\temail = work@example.com\n")
        try home.write(".gitconfig", "")
        let global =
            "[user]\n\tname = Work Name\n\temail = private@example.com\n[includeIf \"gitdir:\(fixture.path)/\"]\n\tpath = \(home.path)/work.inc\n"
        try home.write("global", global)
        try expectCommitsAsGitWould(
            try environment(home: home, ["GIT_CONFIG_GLOBAL": home.path + "/global"]), fixture: fixture)
        #expect(try fixture.git("log", "-1", "--format=%ae") == "work@example.com\n")
    }

    /// author.* and committer.* override user.*; the variables override both; dates in each
    /// form git documents.
    @Test(arguments: [
        "@1700000000 +0100", "1700000000 -0530", "2026-11-24T09:30:00+01:00", "2026-11-24 09:30:00 +0200",
        "Tue, 24 Nov 2026 09:30:00 -0800",
    ])
    func authorCommitterAndDatesAsGitGivesThem(_ date: String) throws {
        let home = Scratch()
        let fixture = try Fixture()
        _ = try fixture.git("config", "user.name", "Repo User")
        _ = try fixture.git("config", "user.email", "repo@example.com")
        _ = try fixture.git("config", "author.email", "author@example.org")
        _ = try fixture.git("config", "committer.name", "Committer Config")
        let environment = try environment(
            home: home, ["GIT_COMMITTER_EMAIL": "ci@example.net", "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date])
        try expectCommitsAsGitWould(environment, fixture: fixture, sameDate: true)
        #expect(
            try fixture.git("log", "-1", "--format=%an <%ae> / %cn <%ce>")
                == "Repo User <author@example.org> / Committer Config <ci@example.net>\n")
    }

    @Test func theSystemFileIsReadUnlessGitIsToldNot() throws {
        let (home, system) = (Scratch(), Scratch())
        try system.write("gitconfig", "[user]\n\tname = System Name\n\temail = system@example.com\n")
        let fixture = try Fixture()
        var environment = try environment(
            home: home,
            [
                "GIT_CONFIG_SYSTEM": system.path + "/gitconfig", "GIT_CONFIG_GLOBAL": "/dev/null",
                "GIT_CONFIG_NOSYSTEM": nil,
            ])
        try expectCommitsAsGitWould(environment, fixture: fixture)
        #expect(try fixture.git("log", "-1", "--format=%an") == "System Name\n")
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["USER"] = "ann"
        try fixture.write("TODO.md", "- [ ] Without the system file\n")
        let result = try run(todosyncBinary, [], in: fixture.path, environment: environment)
        #expect(result.stderr.contains("no user.name / user.email in git config; committed as ann"), "\(result.stderr)")
    }

    @Test func aDateTodosyncCannotReadIsRefused() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] a\n")
        let result = try run(todosyncBinary, [], in: fixture.path, environment: ["GIT_AUTHOR_DATE": "yesterday"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "GIT_AUTHOR_DATE is 'yesterday', a date todosync cannot read; nothing was committed"),
            "\(result.stderr)")
        #expect(fixture.commitCount == 0)
    }

    /// Each date form, against `git var` in the same environment.
    @Test(arguments: [
        "@0 +0000", "@1700000000", "1700000000 +1400", "2005-04-07T22:13:13Z", "2005-04-07T22:13:13.250+02:00",
        "2005-04-07 22:13 -0330",
        "Thu, 07 Apr 2005 22:13:13 +0200", "7 Apr 2005 22:13 +0000",
    ])
    func datesReadAsGitReadsThem(_ text: String) throws {
        let scratch = Scratch()
        _ = try git("init", "-q", in: scratch.path)
        let ident = try run(
            "/usr/bin/git", ["var", "GIT_AUTHOR_IDENT"], in: scratch.path, environment: ["GIT_AUTHOR_DATE": text]
        ).stdout
        let fields = ident.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").suffix(2)
        let date = try #require(GitDate(text))
        let sign = date.offsetMinutes < 0 ? "-" : "+"
        let offset = abs(date.offsetMinutes)
        #expect(
            "\(date.time) \(sign)\(String(format: "%02d%02d", offset / 60, offset % 60))"
                == fields.joined(separator: " "), "\(ident)")
    }
}
