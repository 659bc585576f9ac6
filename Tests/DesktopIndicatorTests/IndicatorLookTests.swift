import DesktopIndicator
import Testing

@Suite enum IndicatorLookTests {
    @Test(arguments: IndicatorLook.pixmapSizes)
    static func theArrowsAreDrawnInTheLooksColour(size: Int) {
        for look in [IndicatorLook.active, .idle] {
            let pixels = look.pixels(size: size)
            #expect(pixels.count == size * size * 4)
            let alphas = stride(from: 0, to: pixels.count, by: 4).map { pixels[$0] }
            #expect(alphas.first == 0 && alphas.last == 0, "the corners are transparent")
            #expect(alphas.contains(255), "some pixels are fully covered")
            #expect(alphas.contains { $0 > 0 && $0 < 255 }, "edges are antialiased")
            let (red, green, blue) = look.colour
            for offset in stride(from: 0, to: pixels.count, by: 4) where pixels[offset] > 0 {
                #expect(Array(pixels[offset + 1...offset + 3]) == [red, green, blue])
            }
        }
    }

    /// Receiving is sending turned upside down: the picture is the same after a half turn.
    @Test(arguments: IndicatorLook.pixmapSizes)
    static func theDownArrowIsTheUpArrowTurned(size: Int) {
        let pixels = IndicatorLook.active.pixels(size: size)
        func alpha(_ column: Int, _ row: Int) -> UInt8 { pixels[(row * size + column) * 4] }
        for row in 0..<size {
            for column in 0..<size {
                #expect(alpha(column, row) == alpha(size - 1 - column, size - 1 - row), "(\(column), \(row))")
            }
        }
        #expect(alpha(size * 3 / 10, size / 2) == 255, "the up arrow's shaft is left of centre")
    }

    @Test static func namesFromTheIconNamingSpecification() {
        #expect(IndicatorLook.active.iconName == "network-transmit-receive")
        #expect(IndicatorLook.idle.iconName == "network-idle")
    }
}
