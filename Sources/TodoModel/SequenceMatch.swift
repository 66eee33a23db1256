/// Matches two sequences: a longest common subsequence (Myers' O((N+M)·D) algorithm), after
/// the common prefix and suffix are set aside.
///
/// Returns, for each element of `old`, the index of the element of `new` it is matched to, or nil
/// where it was removed. Matches never cross: they increase in both sequences.
///
/// ```swift
/// matchSequences(["a", "b", "c"], ["a", "c", "d"])   // [0, nil, 1]
/// ```
///
/// - Complexity: O((N+M)·D) time and O(D²) memory for D differences. Past `maxDifferences`
///   (large rewrites) it matches only the lines that occur once on each side (patience diff's
///   first step): still a valid matching, found in O(N log N).
func matchSequences<T: Hashable>(_ old: [T], _ new: [T], maxDifferences: Int = 4_000) -> [Int?] {
    var result = [Int?](repeating: nil, count: old.count)
    var prefix = 0
    while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] {
        result[prefix] = prefix
        prefix += 1
    }
    var suffix = 0
    while suffix < old.count - prefix, suffix < new.count - prefix,
        old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
        result[old.count - 1 - suffix] = new.count - 1 - suffix
        suffix += 1
    }
    let a = old[prefix..<(old.count - suffix)]
    let b = new[prefix..<(new.count - suffix)]
    guard !a.isEmpty, !b.isEmpty else { return result }
    let middle = myersMatch(Array(a), Array(b), maxDifferences: maxDifferences) ?? uniqueLineMatch(Array(a), Array(b))
    for (i, j) in middle { result[prefix + i] = prefix + j }
    return result
}

/// Matched index pairs, or nil when the sequences differ in more than `maxDifferences` places.
private func myersMatch<T: Hashable>(_ a: [T], _ b: [T], maxDifferences: Int) -> [(Int, Int)]? {
    let n = a.count, m = b.count
    let limit = min(n + m, maxDifferences)
    let offset = limit + 1
    var v = [Int](repeating: 0, count: 2 * limit + 3)
    // trace[d] holds v[-d-1 ... d+1] as it stood before step d.
    var trace: [[Int]] = []
    var finalD = -1
    search: for d in 0...limit {
        trace.append(Array(v[(offset - d - 1)...(offset + d + 1)]))
        for k in stride(from: -d, through: d, by: 2) {
            var x =
                (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
                ? v[offset + k + 1] : v[offset + k - 1] + 1
            var y = x - k
            while x < n, y < m, a[x] == b[y] {
                x += 1
                y += 1
            }
            v[offset + k] = x
            if x >= n, y >= m {
                finalD = d
                break search
            }
        }
    }
    guard finalD >= 0 else { return nil }

    var pairs: [(Int, Int)] = []
    var x = n, y = m
    for d in stride(from: finalD, to: 0, by: -1) {
        let before = trace[d]
        func at(_ k: Int) -> Int { before[k + d + 1] }
        let k = x - y
        let previousK = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1
        let previousX = at(previousK)
        let previousY = previousX - previousK
        // The snake of step d ends at (x, y); before it, one insertion or deletion.
        let startX = previousK == k + 1 ? previousX : previousX + 1
        let startY = startX - k
        while x > startX, y > startY {
            x -= 1
            y -= 1
            pairs.append((x, y))
        }
        x = previousX
        y = previousY
    }
    while x > 0, y > 0 {
        x -= 1
        y -= 1
        pairs.append((x, y))
    }
    return pairs.reversed()
}

/// Matches elements that occur exactly once in each sequence, keeping the longest run that
/// is in the same order on both sides.
private func uniqueLineMatch<T: Hashable>(_ a: [T], _ b: [T]) -> [(Int, Int)] {
    var countA: [T: Int] = [:], countB: [T: Int] = [:]
    var indexB: [T: Int] = [:]
    for element in a { countA[element, default: 0] += 1 }
    for (j, element) in b.enumerated() {
        countB[element, default: 0] += 1
        indexB[element] = j
    }
    var candidates: [(Int, Int)] = []
    for (i, element) in a.enumerated() where countA[element] == 1 && countB[element] == 1 {
        if let j = indexB[element] { candidates.append((i, j)) }
    }
    let kept = ListSet.longestIncreasingRun(candidates.map(\.1))
    return candidates.indices.filter { kept[$0] }.map { candidates[$0] }
}
