#if DEBUG  // A fuzz target reads internals (@testable), which a debug build alone compiles for: ReleaseBuild.swift.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ProgramSupport

/// The `main` of every fuzz target. Built with `-sanitize=fuzzer` (`Tests/fuzz.sh`), the program is libFuzzer's
/// and its arguments are libFuzzer's. In the plain build, the one the test suite runs, it replays the inputs in the
/// files and folders named (its corpus: each once, in the order of their names), so that every input that ever
/// crashed it stays a test; `--seeds FOLDER` writes the target's seed inputs there.
///
/// libFuzzer's `main` cannot be the program's own: SwiftPM links every executable with `main` as an alias of the
/// module's entry point. So libFuzzer is started through `LLVMFuzzerRunDriver`, looked up at run time because only
/// the fuzzing build has it (that build exports its symbols, `--export-dynamic`, for `dlsym` to find it).
public enum FuzzTarget {
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    public static func main(testOneInput: TestOneInput, seeds: () -> [String: [UInt8]]) -> Never {
        // What the code under test logs is no finding, and would bury libFuzzer's lines.
        StandardErrorLogging.bootstrap(level: .critical)
        if let driver = dlsym(nil, "LLVMFuzzerRunDriver") {
            typealias Driver = @convention(c) (
                UnsafeMutablePointer<CInt>, UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                TestOneInput
            ) -> CInt
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(unsafeBitCast(driver, to: Driver.self)(&argc, &argv, testOneInput))
        }
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--seeds", arguments.count == 2 {
            exit(writeSeeds(seeds(), to: arguments[1]))
        }
        guard !arguments.isEmpty, !arguments.contains(where: { $0.hasPrefix("-") }) else {
            complain("usage: \(CommandLine.arguments[0]) FILE_OR_FOLDER...  |  --seeds FOLDER\n")
            exit(2)
        }
        var replayed = 0
        for path in arguments {
            for file in files(at: path) {
                guard let input = readFile(file) else {
                    complain("cannot read \(file)\n")
                    exit(2)
                }
                _ = input.withUnsafeBufferPointer { testOneInput($0.baseAddress, $0.count) }
                replayed += 1
            }
        }
        print("replayed \(replayed) inputs")
        exit(replayed > 0 ? 0 : 1)
    }

    private static func complain(_ message: String) {
        var text = message
        text.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// The file, or the files in the folder, sorted by name.
    private static func files(at path: String) -> [String] {
        guard let folder = opendir(path) else { return [path] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if !name.hasPrefix(".") { names.append(path + "/" + name) }
        }
        return names.sorted()
    }

    private static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            bytes += buffer[..<count]
            if count < buffer.count { return ferror(file) == 0 ? bytes : nil }
        }
    }

    private static func writeSeeds(_ seeds: [String: [UInt8]], to folder: String) -> Int32 {
        for (name, bytes) in seeds {
            guard let file = fopen(folder + "/" + name, "wb") else {
                complain("cannot write \(folder)/\(name)\n")
                return 1
            }
            let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
            fclose(file)
            guard written == bytes.count else { return 1 }
        }
        print("wrote \(seeds.count) seeds to \(folder)")
        return 0
    }
}
#endif
