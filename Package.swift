// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "todosync",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "todosync", targets: ["TodoSyncCLI"]),
        .library(name: "TodoModel", targets: ["TodoModel"]),
        .library(name: "TodoSyncKit", targets: ["TodoSyncKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // libgit2 from the system (Debian: libgit2-dev); linked only through this target.
        .systemLibrary(
            name: "CLibGit2",
            pkgConfig: "libgit2",
            providers: [.apt(["libgit2-dev"]), .brew(["libgit2"])]
        ),
        // One system call Swift's Glibc module does not declare: swapping two files atomically.
        .target(name: "CFileSwap"),
        // Pure core: model, lossless Markdown, changes. No file or git I/O, no Foundation.
        .target(
            name: "TodoModel",
            dependencies: [.product(name: "OrderedCollections", package: "swift-collections")]
        ),
        // libgit2 wrapped in owning Swift types. Knows nothing about TODO items.
        .target(name: "GitStore", dependencies: ["CLibGit2"]),
        // "Nothing changed" from file stamps alone: no libgit2, no list read. Plain POSIX.
        .target(name: "QuickStatus"),
        // The engine: working files <-> history. All writes go through it.
        .target(name: "TodoSyncKit", dependencies: ["TodoModel", "GitStore", "QuickStatus", "CFileSwap"]),
        .executableTarget(
            name: "TodoSyncCLI",
            dependencies: [
                "TodoSyncKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Benchmarks: run with scripts/bench.sh (release); not part of the test run.
        .executableTarget(
            name: "todosync-bench", dependencies: ["TodoModel", "TestSupport"], path: "Benchmarks/TodoSyncBench"),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "TodoModelTests",
            dependencies: [
                "TodoModel", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "GFMDifferentialTests", dependencies: ["TodoModel", "TestSupport"]),
        .testTarget(name: "GitStoreTests", dependencies: ["GitStore", "TestSupport"]),
        .testTarget(
            name: "TodoSyncKitTests", dependencies: ["TodoSyncKit", "TodoModel", "QuickStatus", "TestSupport"],
            exclude: ["Snapshots"]),
    ]
)
