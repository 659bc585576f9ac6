// SPDX-License-Identifier: Apache-2.0
public import ProgramSupport

extension ActivityDetails.FieldValue {
    /// The value as the programs' JSON writes it.
    public var json: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .uint32(let number): .unsigned(UInt64(number))
        case .uint64(let number): .unsigned(number)
        case .bool(let flag): .bool(flag)
        }
    }
}

extension ActivityDetails {
    /// The record as the programs' JSON gives it (`netactivity status --json`, `watch --format json`,
    /// `history --json`): an object with exactly the keys and values `GetActivities` gives, `id` first.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .unsigned(UInt64(id)))]
        forEachField { key, value in members.append((key, value.json)) }
        return .object(members)
    }
}

extension UsageRecord {
    /// The record as `netactivity usage --json` gives it: exactly the keys and values of `GetUsage`.
    public var json: JSONValue {
        .object(fields.map { ($0.key, $0.value.json) })
    }
}

extension LimitRecord {
    /// The rule as `netactivity limits --json` gives it: exactly the keys and values of `GetLimits`.
    public var json: JSONValue {
        .object(fields.map { ($0.key, $0.value.json) })
    }
}

extension PlanRecord {
    /// The plan as `netactivity plans --json` gives it: exactly the keys and values of `GetPlans`.
    public var json: JSONValue {
        .object(fields.map { ($0.key, $0.value.json) })
    }
}
