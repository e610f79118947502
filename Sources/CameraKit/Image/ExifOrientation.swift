/// How a stored picture is turned and mirrored for display, as EXIF's Orientation (1–8) says it:
/// the one place camctl maps rotations, mirroring, `videoflip` methods and points between them.
struct ExifOrientation: Equatable {
    /// The EXIF value, 1 (upright) to 8.
    let value: Int

    init(value: Int) {
        self.value = (1...8).contains(value) ? value : 1
    }

    /// The orientation that shows a picture mirrored left to right (when `mirrored`), then turned
    /// `rotation` degrees clockwise.
    init(rotation: Int, mirrored: Bool) {
        let turns = ((rotation % 360 + 360) % 360) / 90
        value = mirrored ? [2, 7, 4, 5][turns] : [1, 6, 3, 8][turns]
    }

    /// Whether display swaps the picture's width and height.
    var swapsSides: Bool { value >= 5 }

    /// The `videoflip` method that turns stored pixels into the picture as shown: what a viewer does.
    var showing: String { ["none", "horizontal-flip", "rotate-180", "vertical-flip", "upper-left-diagonal",
                           "clockwise", "upper-right-diagonal", "counterclockwise"][value - 1] }

    /// `videoflip`'s `video-direction` for one of its `method` names, for pipeline descriptions: a
    /// `method` written there takes effect only from the second frame, so a one-frame pipeline's
    /// picture came out unturned; a direction is in force from the first.
    static func direction(ofMethod method: String) -> String {
        ["none": "identity", "clockwise": "90r", "rotate-180": "180", "counterclockwise": "90l", "horizontal-flip": "horiz",
         "vertical-flip": "vert", "upper-left-diagonal": "ul-lr", "upper-right-diagonal": "ur-ll"][method] ?? "identity"
    }

    /// The `videoflip` method that turns the picture as shown back into stored pixels.
    var storing: String {
        switch value {
        case 6: ExifOrientation(value: 8).showing
        case 8: ExifOrientation(value: 6).showing
        default: showing  // the others undo themselves
        }
    }

    /// A point of the picture as shown, in the stored pixels of a `width`x`height` picture.
    func storedPoint(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch value {
        case 2: (width - x, y)
        case 3: (width - x, height - y)
        case 4: (x, height - y)
        case 5: (y, x)
        case 6: (y, height - x)
        case 7: (width - y, height - x)
        case 8: (width - y, x)
        default: (x, y)
        }
    }
}
