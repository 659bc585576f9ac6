// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import NetworkActivityService
import ProgramSupport

@main
enum NetActivityDaemon {
    static func main() {
        let (options, logger) = DaemonOptions.startProgram(named: "netactivityd")
        exit(run(options, logger: logger))
    }

    private static func run(_ options: DaemonOptions, logger: Logger) -> Int32 {
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
