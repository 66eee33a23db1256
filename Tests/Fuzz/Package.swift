// swift-tools-version:6.0
// Coverage-guided fuzz targets (libFuzzer), built apart from the project: scripts/fuzz.sh
// builds them with -sanitize=fuzzer,address (docs/RELIABILITY.md).
import Foundation
import PackageDescription

// The project's package, by path; SwiftPM names it after its folder (a clone's name may vary).
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let project = root.lastPathComponent.lowercased()

let package = Package(
    name: "todosync-fuzz",
    dependencies: [.package(path: root.path)],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "fuzz-parse-render", dependencies: ["FuzzDriver", .product(name: "TodoModel", package: project)]),
        .executableTarget(
            name: "fuzz-id-assignment", dependencies: ["FuzzDriver", .product(name: "TodoModel", package: project)]),
        .executableTarget(
            name: "fuzz-merge", dependencies: ["FuzzDriver", .product(name: "TodoModel", package: project)]),
        .executableTarget(
            name: "fuzz-merge-file", dependencies: ["FuzzDriver", .product(name: "TodoModel", package: project)]),
        .executableTarget(
            name: "fuzz-dates", dependencies: ["FuzzDriver", .product(name: "TodoModel", package: project)]),
        .executableTarget(
            name: "fuzz-reflog", dependencies: ["FuzzDriver", .product(name: "TodoSyncKit", package: project)]),
        .executableTarget(
            name: "fuzz-trailers", dependencies: ["FuzzDriver", .product(name: "TodoSyncKit", package: project)]),
    ]
)
