#if canImport(Glibc)
import Glibc
#endif
import NetworkActivityService
import ProgramSupport

@main
enum NetActivityDaemon {
    static func main() {
        let options = DaemonOptions.commandLine.parseOrExit(
            onto: DaemonOptions(), summary: DaemonOptions.summary, description: DaemonOptions.description,
            version: PackageVersion.current, validate: DaemonOptions.validate)
        exit(run(options))
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
