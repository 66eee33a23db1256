// The merge's table keys hash without `Hasher`, through the customization point `Hashable`
// reserves (underscored; nothing public replaces it: see `ItemID._rawHashValue`): a merge
// looks them up for every entry of every side, and an item's key hashes as its id does
// (`mixedHash`).

extension ContainerKey {
    func _rawHashValue(seed: Int) -> Int {
        switch self {
        case .file(let path): path._rawHashValue(seed: seed)
        case .item(let id): id._rawHashValue(seed: seed)
        }
    }
}

extension ListMerger.Token {
    func _rawHashValue(seed: Int) -> Int {
        switch self {
        case .item(let number): mixedHash(0, UInt64(bitPattern: Int64(number)), seed: seed)
        case .line(let side, let index):
            mixedHash(UInt64(side.rawValue + 1), UInt64(bitPattern: Int64(index)), seed: seed)
        case .marker(let index): mixedHash(4, UInt64(bitPattern: Int64(index)), seed: seed)
        }
    }
}

extension ListMerger.Anchor {
    func _rawHashValue(seed: Int) -> Int {
        switch self {
        case .start: mixedHash(5, 0, seed: seed)
        case .after(let token): token._rawHashValue(seed: seed)
        }
    }
}
