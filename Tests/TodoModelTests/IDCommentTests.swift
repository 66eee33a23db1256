import TestSupport
import Testing
@testable import TodoModel

@Suite struct IDCommentTests {
    static let uuid = "0F6C2A4E-8D1B-4C39-9E55-3A1B2C3D4E5F"

    @Test(arguments: [
        "- [ ] a <!-- id: \(uuid) -->",
        "- [ ] a <!-- id: \(uuid.lowercased()) -->",
        "- [ ] a <!--id:\(uuid)-->",
        "- [ ] a <!-- ID : \(uuid) -->",
        "- [ ] a <!-- id: \(uuid) -->   ",
    ])
    func readsIDCommentsTolerantly(_ line: String) throws {
        let document = ListDocument(path: "t.md", bytes: Array((line + "\n").utf8))
        #expect(document.items.map(\.id) == [try #require(ItemID(parsing: Self.uuid))])
        #expect(document.items.first?.title == "a")
    }

    @Test(arguments: [
        "- [ ] a <!- id: \(uuid) -->",
        "- [ ] a <!-- id: \(uuid.dropLast()) -->",
        "- [ ] a <!-- id: \(uuid) ->",
        "- [ ] a <!-- id: \(uuid)",
    ])
    func recognisesDamagedIDComments(_ line: String) {
        let document = ListDocument(path: "t.md", bytes: Array((line + "\n").utf8))
        guard case .damaged = document.idComment(ofNode: 0) else {
            Issue.record("not seen as damaged: \(line)")
            return
        }
        #expect(document.title(ofNode: 0) == "a")
    }

    @Test(arguments: ["- [ ] see <!-- note --> here", "- [ ] a<!-- id: \(uuid) -->", "- [ ] idea <!-- idea -->"])
    func otherCommentsStayInTheTitle(_ line: String) {
        let document = ListDocument(path: "t.md", bytes: Array((line + "\n").utf8))
        #expect(document.idComment(ofNode: 0) == nil)
    }

    @Test func anExistingIDIsNeverRewritten() {
        let text = "- [ ] a <!--id:\(Self.uuid.lowercased())-->\n- [ ] b\n"
        var generator = SeededGenerator(seed: 1)
        let result = IDAssignment.assign(
            ListSet([ListDocument(path: "t.md", bytes: Array(text.utf8))]), base: .empty, using: &generator)
        let rendered = result.lists["t.md"]!.text
        #expect(rendered.hasPrefix("- [ ] a <!--id:\(Self.uuid.lowercased())-->\n- [ ] b <!-- id: "))
        #expect(result.idsWritten == 1)
    }
}
