// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivityInterface

/// Asks polkit, on the system service's bus, whether a caller who is not root may do what an action of ours
/// allows (`PolkitInterface`, `dbus/org.example.NetworkActivity.policy`): by the caller's unique name, so that
/// polkit asks the bus who it is, and no caller can name another. polkit may ask the person through their
/// authentication agent first, which can take a while: the call is answered once polkit has.
final class PolkitCheck {
    /// How long a person may take to authenticate.
    static let timeout = Duration.seconds(120)

    private unowned let connection: Connection

    init(connection: Connection) {
        self.connection = connection
    }

    /// Tells `done` whether `caller` is authorized for `action`: nothing, or `AccessDenied` saying why not
    /// (`refusal`, and what polkit answered).
    func check(_ caller: String, for action: String, refusal: String,
               _ done: @escaping (Result<Void, DBusError>) -> Void) {
        let call = PolkitInterface.checkAuthorization.call(
            PolkitSubject(busName: caller), action, [:], PolkitInterface.allowUserInteraction, "",
            on: PolkitInterface.authority)
        call.autoStart = true
        connection.send(call, timeout: Self.timeout) { result in
            switch result {
            case .success(var reply):
                guard let answer = try? PolkitInterface.checkAuthorization.readReply(&reply) else {
                    done(.failure(DBusError(.accessDenied, "\(refusal): polkit's answer did not read")))
                    return
                }
                done(answer.isAuthorized ? .success(())
                     : .failure(DBusError(.accessDenied, "\(refusal): polkit did not authorize \(action)")))
            case .failure(let error):
                done(.failure(DBusError(.accessDenied, "\(refusal): polkit did not answer (\(error.message))")))
            }
        }
    }
}
