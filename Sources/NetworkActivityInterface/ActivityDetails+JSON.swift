// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport

extension ActivityDetails {
    /// The record as the programs' JSON gives it (`netactivity status --json`, `watch --format json`,
    /// `history --json`): an object with exactly the keys and values `GetActivities` gives, `id` first.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .unsigned(UInt64(id)))]
        forEachField { key, value in
            switch value {
            case .string(let text): members.append((key, .string(text)))
            case .uint32(let number): members.append((key, .unsigned(UInt64(number))))
            case .uint64(let number): members.append((key, .unsigned(number)))
            case .bool(let flag): members.append((key, .bool(flag)))
            }
        }
        return .object(members)
    }
}

extension UsageRecord {
    /// The record as `netactivity usage --json` gives it: exactly the keys and values of `GetUsage`.
    public var json: JSONValue {
        .object(fields.map { key, value in
            switch value {
            case .string(let text): (key, .string(text))
            case .uint32(let number): (key, .unsigned(UInt64(number)))
            case .uint64(let number): (key, .unsigned(number))
            case .bool(let flag): (key, .bool(flag))
            }
        })
    }
}
