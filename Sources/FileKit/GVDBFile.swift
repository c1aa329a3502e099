/// A reader for GVDB files, the format of dconf's database
/// (`~/.config/dconf/user`), written without GLib.
///
/// The layout (all little-endian):
/// - header, 24 bytes: the signature words `"GVar" "iant"`, version 0,
///   options, and the root hash table as `{start, end}`;
/// - hash table: `n_bloom_words` (low 27 bits) and `n_buckets`, the bloom
///   words, `u32 buckets[n_buckets]`, then 24-byte items `{hash, parent,
///   key_start, u16 key_size, u8 type, u8 pad, value_start, value_end}`;
/// - an item's key is only its last segment (`show-banners`); the full name
///   is rebuilt through the parents (`/`, `org/`, `gnome/`, …);
/// - the hash is djb2 over the full name with signed chars.
///
/// Every offset is checked against the file and every loop is bounded, so a
/// truncated or corrupt file yields an error or an absent key, never a crash.
/// The bloom filter is not consulted: it only speeds up misses.
public struct GVDBFile: Sendable {
    private let bytes: [UInt8]
    private let bucketsStart: Int
    private let bucketCount: Int
    private let itemsStart: Int
    private let itemCount: Int

    private static let itemSize = 24
    private static let noParent: UInt32 = 0xFFFF_FFFF

    /// Parses the header and the root hash table of `bytes`.
    public init(bytes: [UInt8]) throws(GVDBError) {
        self.bytes = bytes
        guard bytes.count >= 24 else { throw .malformed("the header is cut short (\(bytes.count) bytes)") }
        let signature = (Self.u32(bytes, 0)!, Self.u32(bytes, 4)!)
        if signature == (0x4756_6172, 0x6961_6E74) { throw .otherByteOrder }
        guard signature == (0x7261_5647, 0x746E_6169) else { throw .notGVDB }
        let version = Self.u32(bytes, 8)!
        guard version == 0 else { throw .unsupportedVersion(version) }
        let start = Int(Self.u32(bytes, 16)!), end = Int(Self.u32(bytes, 20)!)
        guard start <= end, end <= bytes.count, start % 4 == 0, end - start >= 8 else {
            throw .malformed("the root table \(start)..<\(end) does not fit in \(bytes.count) bytes")
        }
        let bloomWords = Int(Self.u32(bytes, start)! & 0x07FF_FFFF)
        bucketCount = Int(Self.u32(bytes, start + 4)!)
        bucketsStart = start + 8 + 4 * bloomWords
        itemsStart = bucketsStart + 4 * bucketCount
        guard itemsStart <= end, (end - itemsStart) % Self.itemSize == 0 else {
            throw .malformed("the root table's buckets or items do not fit in it")
        }
        itemCount = (end - itemsStart) / Self.itemSize
    }

    /// Reads and parses the file at `path` (at most 16 MiB).
    public init(path: String) throws(GVDBError) {
        let bytes: [UInt8]
        do {
            bytes = try AtomicFile.read(path, limit: 16 << 20)
        } catch {
            throw .file(error)
        }
        try self.init(bytes: bytes)
    }

    /// The boolean stored at the full key (`/org/gnome/desktop/notifications/show-banners`);
    /// nil when the key is absent or holds something else, meaning the schema default.
    public func boolean(at key: String) -> Bool? {
        value(at: key)?.boolean
    }

    /// The value stored at the full key, or nil when absent or unreadable.
    public func value(at key: String) -> GVariantValue? {
        guard bucketCount > 0 else { return nil }
        let name = Array(key.utf8)
        let hash = Self.hash(name)
        let bucket = Int(hash % UInt32(bucketCount))
        guard var index = u32(bucketsStart + 4 * bucket).map(Int.init) else { return nil }
        var stop = itemCount
        if bucket + 1 < bucketCount, let next = u32(bucketsStart + 4 * (bucket + 1)), Int(next) < stop {
            stop = Int(next)
        }
        while index < stop {
            if let item = item(index), item.hash == hash, item.type == UInt8(ascii: "v"), matches(item, name) {
                guard let data = slice(Int(item.valueStart), Int(item.valueEnd)) else { return nil }
                return GVariantValue(variant: data)
            }
            index += 1
        }
        return nil
    }

    /// djb2 over the key's bytes taken as signed chars, as GVDB hashes keys.
    static func hash(_ name: [UInt8]) -> UInt32 {
        name.reduce(5381 as UInt32) { hash, byte in
            hash &* 33 &+ UInt32(bitPattern: Int32(Int8(bitPattern: byte)))
        }
    }

    /// Whether the item's name, rebuilt through its parents, is `name`.
    private func matches(_ item: Item, _ name: [UInt8]) -> Bool {
        var end = name.count
        var current = item
        // Each step goes one parent up; a longer chain than there are items is a cycle.
        for _ in 0...itemCount {
            guard let segment = slice(Int(current.keyStart), Int(current.keyStart) + Int(current.keySize)),
                  segment.count <= end, name[(end - segment.count)..<end].elementsEqual(segment) else { return false }
            end -= segment.count
            if current.parent == Self.noParent { return end == 0 }
            guard let parent = self.item(Int(current.parent)) else { return false }
            current = parent
        }
        return false
    }

    /// One 24-byte hash item.
    private struct Item {
        let hash: UInt32
        let parent: UInt32
        let keyStart: UInt32
        let keySize: UInt16
        let type: UInt8
        let valueStart: UInt32
        let valueEnd: UInt32
    }

    private func item(_ index: Int) -> Item? {
        guard index >= 0, index < itemCount else { return nil }
        let at = itemsStart + index * Self.itemSize
        return Item(hash: u32(at)!, parent: u32(at + 4)!, keyStart: u32(at + 8)!,
                    keySize: UInt16(bytes[at + 12]) | UInt16(bytes[at + 13]) << 8,
                    type: bytes[at + 14], valueStart: u32(at + 16)!, valueEnd: u32(at + 20)!)
    }

    /// The bytes `start..<end`, or nil when they are not inside the file.
    private func slice(_ start: Int, _ end: Int) -> ArraySlice<UInt8>? {
        guard start >= 0, start <= end, end <= bytes.count else { return nil }
        return bytes[start..<end]
    }

    private func u32(_ offset: Int) -> UInt32? { Self.u32(bytes, offset) }

    private static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
            | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
