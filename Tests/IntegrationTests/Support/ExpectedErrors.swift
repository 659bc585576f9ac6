import DBusKit
import ServiceHarness

extension RawClient {
    /// Expects `body` to fail with the D-Bus error `name`; returns the error's message.
    func expectError(_ name: String, _ body: (RawClient) throws -> Void) throws -> String {
        do {
            try body(self)
        } catch let error as DBusError {
            guard error.name.rawValue == name else { throw TestFailure("expected \(name), got \(error)") }
            return error.message
        }
        throw TestFailure("expected \(name), but the call succeeded")
    }
}
