// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "todosync",
    platforms: [.macOS(.v14)],
    products: [
        // What users run: answers a clean `status` itself, hands everything else to todosync-core.
        .executable(name: "todosync", targets: ["TodoSyncFront"]),
        // The whole tool (libgit2 linked); found beside `todosync`.
        .executable(name: "todosync-core", targets: ["TodoSyncCLI"]),
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
        // zlib (a dependency of libgit2-dev): GitStore compresses list blobs in pieces it can reuse.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // Pure core: model, lossless Markdown, changes. No file or git I/O, no Foundation.
        .target(
            name: "TodoModel",
            dependencies: [.product(name: "OrderedCollections", package: "swift-collections")]
        ),
        // libgit2 wrapped in owning Swift types. Knows nothing about TODO items.
        .target(name: "GitStore", dependencies: ["CLibGit2", "CZlib"]),
        // "Nothing changed" from file stamps alone: no libgit2, no list read. Plain POSIX.
        .target(name: "QuickStatus"),
        // The engine: working files <-> history. All writes go through it.
        .target(name: "TodoSyncKit", dependencies: ["TodoModel", "GitStore", "QuickStatus"]),
        .executableTarget(
            name: "TodoSyncCLI",
            dependencies: [
                "TodoSyncKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Not position-independent on Linux: the loader then has ~40,000 fewer relocations to
            // apply at every start (~1.5 ms of each command; docs/PERFORMANCE.md, "Start-up").
            linkerSettings: [.unsafeFlags(["-Xclang-linker", "-no-pie"], .when(platforms: [.linux]))]
        ),
        // Starts in ~1 ms (no libgit2, no Swift libraries loaded: a static executable on Linux),
        // where loading libgit2 and its 15 libraries alone takes longer than `git status`.
        .executableTarget(
            name: "TodoSyncFront",
            dependencies: ["QuickStatus"],
            linkerSettings: [.unsafeFlags(["-static-executable"], .when(platforms: [.linux]))]
        ),
        // Benchmarks: run with scripts/bench.sh (release); not part of the test run.
        .executableTarget(name: "todosync-bench", dependencies: ["TodoModel", "TestSupport"], path: "Benchmarks/TodoSyncBench"),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "TodoModelTests",
            dependencies: ["TodoModel", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "GitStoreTests", dependencies: ["GitStore", "TestSupport"]),
        .testTarget(name: "TodoSyncKitTests", dependencies: ["TodoSyncKit", "QuickStatus", "TestSupport"]),
    ]
)
