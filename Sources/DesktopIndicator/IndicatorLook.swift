// SPDX-License-Identifier: Apache-2.0
/// The indicator's icon, drawn by the program itself so that it shows where no icon theme has
/// `network-transmit-receive`: an arrow up (sending) beside an arrow down (receiving).
public enum IndicatorLook: Sendable, Equatable {
    /// Something is active: the arrows in blue.
    case active
    /// Nothing is active, for trays told to keep the icon: the arrows in grey.
    case idle

    /// The themed icon name, from the freedesktop icon naming specification.
    public var iconName: String {
        switch self {
        case .active: "network-transmit-receive"
        case .idle: "network-idle"
        }
    }

    /// The arrows' colour, opaque, as red, green and blue.
    public var colour: (red: UInt8, green: UInt8, blue: UInt8) {
        switch self {
        case .active: (0x1E, 0x88, 0xE5)
        case .idle: (0x9E, 0x9E, 0x9E)
        }
    }

    /// The sizes a tray is offered, in pixels: the common panel sizes, so that most hosts need not scale.
    public static let pixmapSizes = [16, 22, 32]

    /// The icon as a `size` × `size` image, four bytes per pixel in the order alpha, red, green, blue (what the
    /// StatusNotifierItem protocol calls ARGB32 in network byte order), rows from the top. Edges are
    /// antialiased by sampling each pixel 4 × 4 times.
    public func pixels(size: Int) -> [UInt8] {
        let samples = 4
        let (red, green, blue) = colour
        var bytes = [UInt8](repeating: 0, count: size * size * 4)
        for row in 0..<size {
            for column in 0..<size {
                var covered = 0
                for sampleRow in 0..<samples {
                    for sampleColumn in 0..<samples {
                        let x = (Double(column) + (Double(sampleColumn) + 0.5) / Double(samples)) / Double(size)
                        let y = (Double(row) + (Double(sampleRow) + 0.5) / Double(samples)) / Double(size)
                        if Self.arrows.contains(where: { $0.contains(x: x, y: y) }) { covered += 1 }
                    }
                }
                guard covered > 0 else { continue }
                let offset = (row * size + column) * 4
                bytes[offset] = UInt8(covered * 255 / (samples * samples))
                bytes[offset + 1] = red
                bytes[offset + 2] = green
                bytes[offset + 3] = blue
            }
        }
        return bytes
    }

    /// Both arrows in a unit square with y growing downwards: each is a shaft and a head.
    private static let arrows: [Shape] = [
        .rectangle(left: 0.22, top: 0.40, right: 0.38, bottom: 0.92),
        .triangle((0.30, 0.06), (0.06, 0.46), (0.54, 0.46)),
        .rectangle(left: 0.62, top: 0.08, right: 0.78, bottom: 0.60),
        .triangle((0.70, 0.94), (0.94, 0.54), (0.46, 0.54)),
    ]
}

private enum Shape {
    case rectangle(left: Double, top: Double, right: Double, bottom: Double)
    case triangle((Double, Double), (Double, Double), (Double, Double))

    func contains(x: Double, y: Double) -> Bool {
        switch self {
        case let .rectangle(left, top, right, bottom):
            return x >= left && x <= right && y >= top && y <= bottom
        case let .triangle(a, b, c):
            // Inside when the point is on the same side of all three edges, whichever way they wind.
            func side(_ p: (Double, Double), _ q: (Double, Double)) -> Double {
                (q.0 - p.0) * (y - p.1) - (q.1 - p.1) * (x - p.0)
            }
            let sides = [side(a, b), side(b, c), side(c, a)]
            return sides.allSatisfy { $0 >= 0 } || sides.allSatisfy { $0 <= 0 }
        }
    }
}
