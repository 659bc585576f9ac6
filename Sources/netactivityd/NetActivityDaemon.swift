#if canImport(Glibc)
import Glibc
#endif
import Logging
import NetworkActivityService
import PackageVersion
import StandardErrorLogging

@main
enum NetActivityDaemon {
    static func main() {
        do throws(UsageError) {
            switch try DaemonOptions.parse(CommandLine.arguments.dropFirst()) {
            case .run(let options):
                exit(run(options))
            case .help:
                print(DaemonOptions.help, terminator: "")
                exit(0)
            case .version:
                print(PackageVersion.current)
                exit(0)
            }
        } catch {
            var message = "netactivityd: \(error.message)\nUsage: netactivityd [options]; see netactivityd --help\n"
            message.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
            exit(64)
        }
    }

    private static func run(_ options: DaemonOptions) -> Int32 {
        StandardErrorLogging.bootstrap(level: options.logLevel)
        let logger = Logger(label: "netactivityd")
        let service: NetworkActivityService
        do {
            service = try NetworkActivityService(configuration: options.configuration, logger: logger)
        } catch {
            logger.critical("\(error)")
            return 1
        }
        return service.run()
    }
}
