#if canImport(Glibc)
import Glibc

/// glibc's allocator set for a short command that reads, parses and writes list-sized arrays:
/// most of a commit's page faults were fresh heap pages (a 10,000-item list: ~2,500 faults).
enum HeapSettings {
    static func apply() {
        // NB: malloc.h is not in Swift's Glibc module; mallopt is looked up. M_TRIM_THRESHOLD
        // is -1, M_TOP_PAD -2, M_MMAP_THRESHOLD -3.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        // glibc raises its mmap threshold after the first large free, so a list's arrays land in
        // the heap and stay resident when freed: a fixed threshold gives them back (a 100,000-item
        // status peaks at 79 MB instead of 97). At 1 MB, not lower: a 10,000-item list's arrays
        // stay in the heap, where 256 KB made each one fresh pages to fault in (~2 ms a commit).
        _ = mallopt(-3, 1024 * 1024)
        // Freed memory at the top of the heap is kept, not given back (glibc trims past 128 KB): a
        // command frees and allocates list-sized arrays in turn, and each trim made the next one
        // fresh pages to fault in (a quarter of the page faults of a commit).
        _ = mallopt(-1, 256 * 1024 * 1024)
        // The heap grows once, by 64 MB of address space (pages are only taken when touched),
        // and asks for transparent huge pages: the kernel then fills 2 MB at a fault, not 4 KB
        // (a commit of a 10,000-item list: ~2,500 -> ~1,500 faults, 1-2 ms; glibc does the same
        // with the tunable glibc.malloc.hugetlb=1, which only the environment can set).
        _ = mallopt(-2, 64 * 1024 * 1024)
        guard let block = malloc(512 * 1024) else { return }
        defer { free(block) }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (Int(bitPattern: block) + page - 1) & ~(page - 1)
        let top = Int(bitPattern: sbrk(0))
        if top > start { _ = madvise(UnsafeMutableRawPointer(bitPattern: start), top - start, MADV_HUGEPAGE) }
    }
}
#endif
