// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivity
import NetworkActivityInterface

/// How the domain's refusals are named on the bus.
extension ActivityError: DBusErrorConvertible {
    public var dbusError: DBusError {
        switch self {
        case .unknownActivity: DBusError(.unknownActivity, description)
        case .notOwner: DBusError(.notOwner, description)
        case .callerLimitExceeded, .userLimitExceeded, .totalLimitExceeded, .idsExhausted: DBusError(.limitExceeded, description)
        case .invalidLabel, .invalidTimeout, .invalidPercent, .invalidTransfer: DBusError(.invalidArgs, description)
        case .notCancellable: DBusError(.notCancellable, description)
        case .notPausable: DBusError(.notPausable, description)
        }
    }
}
