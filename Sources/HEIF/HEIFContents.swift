/// What a HEIF file holds, read from its boxes: the brands, the items with their properties and
/// references, and where each item's data is. Enough to list a file, not to decode it.
///
/// Every length and offset is checked against the data, so malformed input is refused with a
/// ``HEIFError`` that says what is wrong, never a crash.
public struct HEIFContents: Sendable, Equatable {
    /// A property of an item.
    public enum Property: Sendable, Equatable {
        /// `ispe`: the coded size.
        case size(width: Int, height: Int)
        /// `irot`: anticlockwise quarter turns for display.
        case rotation(quarterTurns: Int)
        /// `imir`: 0 mirrors top to bottom, 1 left to right.
        case mirror(axis: Int)
        /// `hvcC`: the HEVC profile, level, chroma format (1 = 4:2:0) and luma bit depth.
        case hevcConfiguration(profile: Int, level: Int, chromaFormat: Int, bitDepth: Int)
        /// `pixi`: bits per channel.
        case pixelBits([Int])
        /// `colr`: the colour type (`nclx`, `prof`, `rICC`).
        case colour(String)
        /// Any other property, by its box type.
        case other(String)
    }

    /// An item: an image, a tile, a thumbnail or metadata.
    public struct Item: Sendable, Equatable {
        public let id: Int
        /// `hvc1`, `grid`, `Exif`, `mime`, …
        public let type: String
        public let isHidden: Bool
        public internal(set) var properties: [Property] = []
        /// References from this item, by type (`thmb`, `cdsc`, `dimg`) to item ids.
        public internal(set) var references: [String: [Int]] = [:]
        /// The item's data size in bytes.
        public internal(set) var dataLength = 0
    }

    public let majorBrand: String
    public let compatibleBrands: [String]
    public let primaryItemID: Int
    public let items: [Item]

    /// The primary image.
    public var primary: Item? { items.first { $0.id == primaryItemID } }

    /// The primary image's size as displayed: its `ispe`, turned by its `irot`.
    public var displaySize: (width: Int, height: Int)? {
        guard let primary else { return nil }
        var size: (Int, Int)?
        var turns = 0
        for property in primary.properties {
            if case .size(let width, let height) = property { size = (width, height) }
            if case .rotation(let quarterTurns) = property { turns = quarterTurns }
        }
        guard let (width, height) = size else { return nil }
        return turns % 2 == 1 ? (height, width) : (width, height)
    }

    /// The thumbnail of the primary image, if it has one.
    public var thumbnail: Item? {
        items.first { $0.references["thmb"]?.contains(primaryItemID) == true }
    }

    public static func == (lhs: HEIFContents, rhs: HEIFContents) -> Bool {
        lhs.majorBrand == rhs.majorBrand && lhs.compatibleBrands == rhs.compatibleBrands
            && lhs.primaryItemID == rhs.primaryItemID && lhs.items == rhs.items
    }

    /// Reads a file's boxes.
    public init(parsing data: [UInt8]) throws(HEIFError) {
        guard data.count >= 8, Array(data[4..<8]) == Array("ftyp".utf8) else {
            throw HEIFError("the file does not start with an ftyp box; it is not a HEIF file")
        }
        var file = ByteReader(data)
        var brands: (String, [String])?
        var meta: ByteReader?
        while !file.isAtEnd {
            let (type, body) = try file.box()
            switch type {
            case "ftyp":
                var ftyp = body
                let major = try ftyp.fourCC()
                _ = try ftyp.u32()
                var compatible: [String] = []
                while !ftyp.isAtEnd { compatible.append(try ftyp.fourCC()) }
                brands = (major, compatible)
            case "meta":
                meta = body
            default:
                continue
            }
        }
        guard let brands else { throw HEIFError("the file's ftyp box is unreadable") }
        guard var meta else { throw HEIFError("the file has no meta box, so it holds no images") }
        majorBrand = brands.0
        compatibleBrands = brands.1
        _ = try meta.u32()  // version and flags
        var primary: Int?
        var items: [Item] = []
        var properties: [Property] = []
        var associations: [Int: [Int]] = [:]
        var references: [(String, Int, [Int])] = []
        var lengths: [Int: Int] = [:]
        while !meta.isAtEnd {
            let (type, body) = try meta.box()
            var box = body
            switch type {
            case "pitm":
                let version = try box.u8()
                _ = try box.bytes(3)
                primary = version == 0 ? try box.u16() : try box.u32()
            case "iinf":
                let version = try box.u8()
                _ = try box.bytes(3)
                let count = version == 0 ? try box.u16() : try box.u32()
                for _ in 0..<count {
                    let (entryType, entry) = try box.box()
                    guard entryType == "infe" else { throw HEIFError("iinf holds a \(entryType) box where an infe was expected") }
                    items.append(try Self.item(entry))
                }
            case "iprp":
                while !box.isAtEnd {
                    let (childType, child) = try box.box()
                    if childType == "ipco" { properties = try Self.properties(child) }
                    if childType == "ipma" { associations.merge(try Self.associations(child)) { $1 } }
                }
            case "iref":
                let version = try box.u8()
                _ = try box.bytes(3)
                while !box.isAtEnd {
                    let (referenceType, entryBody) = try box.box()
                    var entry = entryBody
                    let from = version == 0 ? try entry.u16() : try entry.u32()
                    let count = try entry.u16()
                    var to: [Int] = []
                    for _ in 0..<count { to.append(version == 0 ? try entry.u16() : try entry.u32()) }
                    references.append((referenceType, from, to))
                }
            case "iloc":
                lengths = try Self.itemLengths(box, fileSize: data.count)
            default:
                continue
            }
        }
        guard let primary else { throw HEIFError("the file names no primary image (no pitm box)") }
        for index in items.indices {
            let id = items[index].id
            items[index].properties = try (associations[id] ?? []).map { (index: Int) throws(HEIFError) -> Property in
                guard index >= 1, index <= properties.count else {
                    throw HEIFError("item \(id) uses property \(index), but there are \(properties.count)")
                }
                return properties[index - 1]
            }
            items[index].dataLength = lengths[id] ?? 0
            for (type, from, to) in references where from == id { items[index].references[type, default: []] += to }
        }
        guard items.contains(where: { $0.id == primary }) else {
            throw HEIFError("the primary image \(primary) is not among the file's items")
        }
        primaryItemID = primary
        self.items = items
    }

    private static func item(_ body: ByteReader) throws(HEIFError) -> Item {
        var infe = body
        let version = try infe.u8()
        let flags = try infe.bytes(3)
        guard version >= 2 else { throw HEIFError("an infe box of version \(version) is too old for HEIF items") }
        let id = version == 2 ? try infe.u16() : try infe.u32()
        _ = try infe.u16()  // protection index
        return Item(id: id, type: try infe.fourCC(), isHidden: flags[2] & 1 == 1)
    }

    private static func properties(_ body: ByteReader) throws(HEIFError) -> [Property] {
        var ipco = body
        var found: [Property] = []
        while !ipco.isAtEnd {
            let (type, propertyBody) = try ipco.box()
            var property = propertyBody
            switch type {
            case "ispe":
                _ = try property.u32()
                found.append(.size(width: try property.u32(), height: try property.u32()))
            case "irot":
                found.append(.rotation(quarterTurns: Int(try property.u8() & 0x03)))
            case "imir":
                found.append(.mirror(axis: Int(try property.u8() & 0x01)))
            case "hvcC":
                let record = try property.bytes(19)
                found.append(.hevcConfiguration(profile: Int(record[1] & 0x1F), level: Int(record[12]),
                                                chromaFormat: Int(record[16] & 0x03), bitDepth: 8 + Int(record[17] & 0x07)))
            case "pixi":
                _ = try property.u32()
                let count = Int(try property.u8())
                found.append(.pixelBits(try property.bytes(count).map(Int.init)))
            case "colr":
                found.append(.colour(try property.fourCC()))
            default:
                found.append(.other(type))
            }
        }
        return found
    }

    private static func associations(_ body: ByteReader) throws(HEIFError) -> [Int: [Int]] {
        var ipma = body
        let version = try ipma.u8()
        let flags = try ipma.bytes(3)
        let wide = flags[2] & 1 == 1
        var found: [Int: [Int]] = [:]
        for _ in 0..<(try ipma.u32()) {
            let id = version == 0 ? try ipma.u16() : try ipma.u32()
            let count = Int(try ipma.u8())
            var indices: [Int] = []
            for _ in 0..<count {
                indices.append(wide ? try ipma.u16() & 0x7FFF : Int(try ipma.u8() & 0x7F))
            }
            found[id] = indices
        }
        return found
    }

    /// Each item's total data length, with every extent checked to lie inside the file.
    private static func itemLengths(_ body: ByteReader, fileSize: Int) throws(HEIFError) -> [Int: Int] {
        var iloc = body
        let version = try iloc.u8()
        _ = try iloc.bytes(3)
        guard version <= 2 else { throw HEIFError("iloc version \(version) is unknown") }
        let sizes = try iloc.u8(), more = try iloc.u8()
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0x0F)
        let baseSize = Int(more >> 4), indexSize = version >= 1 ? Int(more & 0x0F) : 0
        for size in [offsetSize, lengthSize, baseSize, indexSize] where ![0, 4, 8].contains(size) {
            throw HEIFError("iloc uses \(size)-byte fields; 0, 4 or 8 are allowed")
        }
        let count = version < 2 ? try iloc.u16() : try iloc.u32()
        var lengths: [Int: Int] = [:]
        for _ in 0..<count {
            let id = version < 2 ? try iloc.u16() : try iloc.u32()
            let method = version >= 1 ? try iloc.u16() & 0x0F : 0
            _ = try iloc.u16()  // data reference index
            let base = try iloc.integer(baseSize)
            guard method <= 2 else { throw HEIFError("item \(id) uses construction method \(method), which is unknown") }
            var total = 0
            for _ in 0..<(try iloc.u16()) {
                _ = try iloc.integer(indexSize)
                let offset = try iloc.integer(offsetSize), length = try iloc.integer(lengthSize)
                let (start, startOverflows) = base.addingReportingOverflow(offset)
                let (stop, stopOverflows) = start.addingReportingOverflow(length)
                let (sum, sumOverflows) = total.addingReportingOverflow(length)
                // Data in the file (method 0) or in its idat box (method 1) cannot be larger than
                // the file; data taken from other items (method 2) is bounded by the sum's range.
                guard !sumOverflows, method == 2 || sum <= fileSize else {
                    throw HEIFError("item \(id)'s extents add up to more data than the file holds")
                }
                guard method != 0 || (!startOverflows && !stopOverflows && stop <= fileSize) else {
                    throw HEIFError("item \(id)'s data lies outside the file")
                }
                total = sum
            }
            lengths[id] = total
        }
        return lengths
    }
}
