// SPDX-License-Identifier: Apache-2.0
import DBusKit
import NetworkActivityInterface

extension Connection {
    /// Sends every call before reading any reply, as a busy client does, then returns the replies (or error
    /// replies) in the calls' order; signals that arrive meanwhile are dropped.
    func pipelined(_ calls: [Message], timeout: Duration = .seconds(60)) throws -> [Message] {
        let serials = calls.map { send($0) }
        var replies: [UInt32: Message] = [:]
        let deadline = ContinuousClock.now + timeout
        while replies.count < serials.count {
            guard let message = try nextMessage(timeout: ContinuousClock.now.duration(to: deadline)) else {
                throw BenchFailure("\(serials.count - replies.count) of \(serials.count) calls got no reply in \(timeout)")
            }
            if message.type == .methodReturn || message.type == .error { replies[message.replySerial] = message }
        }
        return serials.map { replies[$0]! }
    }

    /// Begins `count` activities at once and returns their ids.
    func beginActivities(_ count: Int, label: String) throws -> [UInt32] {
        let calls = (0..<count).map { _ in ServiceMembers.begin.serviceCall(label).message }
        return try pipelined(calls).map { reply in
            if let error = reply.error { throw error }
            var reader = reply.arguments()
            return try ServiceMembers.begin.readReply(&reader)
        }
    }

    /// Ends the activities `ids` at once.
    func endActivities(_ ids: [UInt32]) throws {
        let calls = ids.map { id in ServiceMembers.end.serviceCall(id).message }
        for reply in try pipelined(calls) {
            if let error = reply.error { throw error }
        }
    }
}
