import FuzzDriver
import TodoModel

/// Any bytes: parsing and rendering give them back exactly.
@main enum Target {
    static func main() {
        FuzzDriver.run { bytes in
            let document = ListDocument(path: "TODO.md", bytes: bytes)
            precondition(document.render() == bytes, "parse and render changed the bytes")
        }
    }
}
