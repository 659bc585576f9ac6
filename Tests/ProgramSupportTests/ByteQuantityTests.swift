import ProgramSupport
import Testing

@Suite struct ByteQuantityTests {
    @Test(arguments: [
        ("4096", 4096), ("0", 0), ("500kB", 500_000), ("500 kB", 500_000), ("10GB", 10_000_000_000),
        ("1.5 GB", 1_500_000_000), ("3.2 MB", 3_200_000), ("512MiB", 536_870_912), ("1KiB", 1024),
        ("1.5KiB", 1536), ("0.0001kB", 0), ("2TB", 2_000_000_000_000), ("7B", 7),
        ("18446744073709551615", UInt64.max), ("18446744073.709551615GB", UInt64.max),
    ] as [(String, UInt64)])
    func sizesReadAsWritten(text: String, bytes: UInt64) {
        #expect(ByteQuantity.size(text) == bytes)
    }

    @Test(arguments: [
        "", "GB", "-1", "+1", "1e3", "1.5.2MB", ".5MB", "5.MB", "1,5GB", "1,000", "10XB", "10gb", "10 G B",
        "10  GB", " 10GB", "10GB ", "10GB/s", "10Mbit", "18446744073709551616", "18446744073.709551616GB",
        "99999999999999999999TB", "1.0000000001GB", "١٢٣", "12\u{1B}[0m",
    ])
    func sizesRefused(text: String) {
        #expect(ByteQuantity.size(text) == nil)
    }

    @Test(arguments: [
        ("1000", 1000), ("500kB/s", 500_000), ("2MB/s", 2_000_000), ("3.2 MB/s", 3_200_000), ("8Mbit/s", 1_000_000),
        ("1Gbit/s", 125_000_000), ("100kbit/s", 12_500), ("12bit/s", 1), ("1bit/s", 0), ("64KiB/s", 65_536),
        ("1B/s", 1), ("0.5MB/s", 500_000),
    ] as [(String, UInt64)])
    func ratesReadAsWritten(text: String, bytesPerSecond: UInt64) {
        #expect(ByteQuantity.rate(text) == bytesPerSecond)
    }

    @Test(arguments: [
        "", "2MB", "2MB/", "2MB/min", "8Mb/s", "8mbit/s", "8Mbit/s/s", "2 MB /s", "-2MB/s", "1,5MB/s",
        "99999999999999999999Gbit/s",
    ])
    func ratesRefused(text: String) {
        #expect(ByteQuantity.rate(text) == nil)
    }
}
