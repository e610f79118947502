/// The items of a HEIF image, their properties and references, written as the `meta` box.
struct ItemLayout {
    struct Item {
        let id: Int
        let type: String
        let hidden: Bool
        let data: [UInt8]
        /// Stored in `mdat` (or, for a grid's description, in `idat`).
        let inMediaData: Bool
        /// Indices (1-based) into the property container, and whether each is essential.
        var properties: [(index: Int, essential: Bool)] = []
    }

    private(set) var items: [Item] = []
    private var properties: [[UInt8]] = []
    private var references: [(type: String, from: Int, to: [Int])] = []
    private var primaryID = 1
    private var gridDescription: [UInt8] = []
    /// Where each `mdat` item's offset is written in `meta`, and its length, in item order.
    var offsetPatches: [(position: Int, length: Int)] = []

    init(_ image: HEIFImage) throws(HEIFError) {
        let colour = image.colour.map(Self.colourProperty)
        switch image.primary {
        case .single(let picture):
            primaryID = try addPicture(picture, hidden: false, colour: colour)
        case .grid(let tiles, let columns, let width, let height):
            guard columns > 0, !tiles.isEmpty, tiles.count % columns == 0, tiles.count / columns <= 256, columns <= 256 else {
                throw HEIFError("\(tiles.count) tiles do not make a grid of \(columns) columns")
            }
            let rows = tiles.count / columns
            guard tiles.allSatisfy({ $0.width == tiles[0].width && $0.height == tiles[0].height }),
                  columns * tiles[0].width >= width, rows * tiles[0].height >= height else {
                throw HEIFError("the tiles do not cover \(width)x\(height)")
            }
            let gridID = 1
            items.append(Item(id: gridID, type: "grid", hidden: false, data: [], inMediaData: false))
            var description = ByteWriter()
            let large = width > 0xFFFF || height > 0xFFFF
            description.u8(0)
            description.u8(large ? 1 : 0)
            description.u8(UInt8(rows - 1))
            description.u8(UInt8(columns - 1))
            if large { description.u32(width); description.u32(height) } else { description.u16(width); description.u16(height) }
            gridDescription = description.bytes
            // The tiles share one configuration and size; each is a hidden item of its own data.
            let configuration = try tiles[0].itemConfiguration()
            let shared = [try property(Self.configurationProperty(configuration)),
                          try property(Self.sizeProperty(tiles[0].width, tiles[0].height))]
            var tileIDs: [Int] = []
            for tile in tiles {
                let id = items.count + 1
                var item = Item(id: id, type: "hvc1", hidden: true, data: try tile.itemData(), inMediaData: true)
                item.properties = [(shared[0], true), (shared[1], false)]
                items.append(item)
                tileIDs.append(id)
            }
            references.append(("dimg", gridID, tileIDs))
            var gridProperties = [(try property(Self.sizeProperty(width, height)), false),
                                  (try property(Self.pixelProperty(tiles[0].bitsPerChannel)), false)]
            if let colour { gridProperties.append((try property(colour), false)) }
            items[gridID - 1].properties = gridProperties
            primaryID = gridID
        }
        try addOrientation(image.orientation)
        if let thumbnail = image.thumbnail {
            let id = try addPicture(thumbnail, hidden: false, colour: colour)
            references.append(("thmb", id, [primaryID]))
        }
        if let exif = image.exif {
            let id = items.count + 1
            // The Exif item starts with the offset from after this field to the TIFF header: 0.
            items.append(Item(id: id, type: "Exif", hidden: true, data: [0, 0, 0, 0] + exif, inMediaData: true))
            references.append(("cdsc", id, [primaryID]))
        }
    }

    /// Adds an `hvc1` item with its configuration, size, pixel and colour properties.
    private mutating func addPicture(_ picture: HEVCPicture, hidden: Bool, colour: [UInt8]?) throws(HEIFError) -> Int {
        let id = items.count + 1
        var item = Item(id: id, type: "hvc1", hidden: hidden, data: try picture.itemData(), inMediaData: true)
        item.properties = [(try property(Self.configurationProperty(try picture.itemConfiguration())), true),
                           (try property(Self.sizeProperty(picture.width, picture.height)), false),
                           (try property(Self.pixelProperty(picture.bitsPerChannel)), false)]
        if let colour { item.properties.append((try property(colour), false)) }
        items.append(item)
        return id
    }

    /// Rotation (`irot`, anticlockwise quarter turns) then mirroring (`imir`), both essential and
    /// after the size, as the EXIF orientation asks.
    private mutating func addOrientation(_ orientation: Int) throws(HEIFError) {
        // EXIF orientation → (anticlockwise quarter turns, mirror axis: 0 top↔bottom, 1 left↔right).
        let (turns, mirror): (Int, Int?) = switch orientation {
        case 2: (0, 1)
        case 3: (2, nil)
        case 4: (0, 0)
        case 5: (3, 1)
        case 6: (3, nil)
        case 7: (3, 0)
        case 8: (1, nil)
        default: (0, nil)
        }
        if turns != 0 {
            items[primaryID - 1].properties.append((try property(Self.plainBox("irot", [UInt8(turns)])), true))
        }
        if let mirror {
            items[primaryID - 1].properties.append((try property(Self.plainBox("imir", [UInt8(mirror)])), true))
        }
    }

    /// The index (1-based) of a property, adding it once.
    private mutating func property(_ bytes: [UInt8]) throws(HEIFError) -> Int {
        if let index = properties.firstIndex(of: bytes) { return index + 1 }
        properties.append(bytes)
        guard properties.count < 128 else { throw HEIFError("the image has more properties than one byte indexes") }
        return properties.count
    }

    /// The `meta` box. Offsets of `mdat` items are written as 0 and recorded in ``offsetPatches``.
    mutating func meta() -> [UInt8] {
        let usesItemData = !gridDescription.isEmpty
        var patches: [(position: Int, length: Int)] = []
        var meta = ByteWriter()
        meta.fullBox("meta") { meta in
            meta.fullBox("hdlr") { hdlr in
                hdlr.u32(0)
                hdlr.fourCC("pict")
                hdlr.u32(0); hdlr.u32(0); hdlr.u32(0)
                hdlr.string("")
            }
            meta.fullBox("pitm") { $0.u16(primaryID) }
            meta.fullBox("iloc", version: usesItemData ? 1 : 0) { iloc in
                iloc.u8(0x44)  // 4-byte offsets and lengths
                iloc.u8(0x00)  // no base offset, no index
                iloc.u16(items.count)
                for item in items {
                    iloc.u16(item.id)
                    if usesItemData { iloc.u16(item.inMediaData ? 0 : 1) }  // construction method: file or idat
                    iloc.u16(0)  // data reference: this file
                    iloc.u16(1)  // one extent
                    if item.inMediaData {
                        patches.append((iloc.bytes.count, item.data.count))
                        iloc.u32(0)
                        iloc.u32(item.data.count)
                    } else {
                        iloc.u32(0)
                        iloc.u32(gridDescription.count)
                    }
                }
            }
            meta.fullBox("iinf") { iinf in
                iinf.u16(items.count)
                for item in items {
                    iinf.fullBox("infe", version: 2, flags: item.hidden ? 1 : 0) { infe in
                        infe.u16(item.id)
                        infe.u16(0)
                        infe.fourCC(item.type)
                        infe.string("")
                    }
                }
            }
            if !references.isEmpty {
                meta.fullBox("iref") { iref in
                    for reference in references {
                        iref.box(reference.type) { entry in
                            entry.u16(reference.from)
                            entry.u16(reference.to.count)
                            reference.to.forEach { entry.u16($0) }
                        }
                    }
                }
            }
            meta.box("iprp") { iprp in
                iprp.box("ipco") { ipco in properties.forEach { ipco.append($0) } }
                iprp.fullBox("ipma") { ipma in
                    let described = items.filter { !$0.properties.isEmpty }
                    ipma.u32(described.count)
                    for item in described {
                        ipma.u16(item.id)
                        ipma.u8(UInt8(item.properties.count))
                        for property in item.properties {
                            ipma.u8(UInt8(property.index) | (property.essential ? 0x80 : 0))
                        }
                    }
                }
            }
            if usesItemData {
                meta.box("idat") { $0.append(gridDescription) }
            }
        }
        // Positions were counted from the end of iloc's header; find where that is in meta.
        let ilocStart = Self.contentStart(of: "iloc", in: meta.bytes)
        offsetPatches = patches.map { (ilocStart + $0.position, $0.length) }
        return meta.bytes
    }

    /// Where a child box of `meta` starts its content (after its size and type).
    private static func contentStart(of type: String, in meta: [UInt8]) -> Int {
        var index = 12  // meta's header and version/flags
        while index + 8 <= meta.count {
            let size = meta[index..<index + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: meta[index + 4..<index + 8], as: UTF8.self) == type { return index + 8 }
            index += max(8, size)
        }
        return index
    }

    private static func plainBox(_ type: String, _ body: [UInt8]) -> [UInt8] {
        var writer = ByteWriter()
        writer.box(type) { $0.append(body) }
        return writer.bytes
    }

    private static func configurationProperty(_ record: [UInt8]) -> [UInt8] {
        plainBox("hvcC", record)
    }

    private static func sizeProperty(_ width: Int, _ height: Int) -> [UInt8] {
        var writer = ByteWriter()
        writer.fullBox("ispe") { $0.u32(width); $0.u32(height) }
        return writer.bytes
    }

    private static func pixelProperty(_ bits: [UInt8]) -> [UInt8] {
        var writer = ByteWriter()
        writer.fullBox("pixi") { pixi in
            pixi.u8(UInt8(bits.count))
            bits.forEach { pixi.u8($0) }
        }
        return writer.bytes
    }

    private static func colourProperty(_ colour: HEIFImage.Colour) -> [UInt8] {
        var writer = ByteWriter()
        writer.box("colr") { colr in
            colr.fourCC("nclx")
            colr.u16(colour.primaries)
            colr.u16(colour.transfer)
            colr.u16(colour.matrix)
            colr.u8(colour.fullRange ? 0x80 : 0)
        }
        return writer.bytes
    }
}
