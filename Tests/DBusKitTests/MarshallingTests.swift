import Testing
import DBusKit

/// Messages built and read back in memory: no bus involved.
@Suite("Argument marshalling")
struct MarshallingTests {
    private func call() -> Message {
        Message.methodCall(destination: "org.example.Test", path: "/org/example/Test",
                           interface: "org.example.Test", member: "Do")
    }

    @Test func basicValuesRoundTrip() throws {
        let message = call()
        message.appendArguments { writer in
            writer.append(true)
            writer.append(UInt8(7))
            writer.append(Int32(-5))
            writer.append(UInt32.max)
            writer.append(Int64.min)
            writer.append(UInt64.max)
            writer.append(2.5)
            writer.append("héllo ✓")
            writer.append(ObjectPath("/a/b"))
        }
        #expect(message.signature == "byiuxtdso")
        #expect(message.hasSignature("byiuxtdso"))
        var reader = message.arguments()
        #expect(try reader.read(Bool.self) == true)
        #expect(try reader.read(UInt8.self) == 7)
        #expect(try reader.read(Int32.self) == -5)
        #expect(try reader.read(UInt32.self) == .max)
        #expect(try reader.read(Int64.self) == .min)
        #expect(try reader.read(UInt64.self) == .max)
        #expect(try reader.read(Double.self) == 2.5)
        #expect(try reader.read(String.self) == "héllo ✓")
        #expect(try reader.read(ObjectPath.self).rawValue == "/a/b")
        #expect(reader.isAtEnd)
    }

    @Test func containersRoundTrip() throws {
        let message = call()
        message.appendArguments { writer in
            writer.append(["a", "b", ""])
            writer.append([String: UInt32]())
            writer.append(["x": Variant(UInt32(3)), "y": Variant(false)])
            writer.appendArray(elementSignature: "(us)") { array in
                for (number, text) in [(UInt32(1), "one"), (2, "two")] {
                    array.appendStruct { $0.append(number); $0.append(text) }
                }
            }
        }
        #expect(message.signature == "asa{su}a{sv}a(us)")
        var reader = message.arguments()
        #expect(try reader.read([String].self) == ["a", "b", ""])
        #expect(try reader.read([String: UInt32].self).isEmpty)
        let properties = try reader.read([String: ReceivedVariant].self)
        #expect(properties["x"]?.signature == "u")
        #expect(try properties["x"]?.decode(UInt32.self) == 3)
        #expect(try properties["y"]?.decode(Bool.self) == false)
        #expect(throws: DBusError.self) { try properties["y"]?.decode(String.self) }
        let pairs = try reader.readArray("a(us)") { (element: inout MessageReader) throws(DBusError) in
            try element.readStruct("(us)") { (fields: inout MessageReader) throws(DBusError) in
                "\(try fields.read(UInt32.self))=\(try fields.read(String.self))"
            }
        }
        #expect(pairs == ["1=one", "2=two"])
        #expect(reader.isAtEnd)
    }

    @Test func readingTheWrongTypeThrowsInvalidArgsAndNamesBothTypes() {
        let message = call()
        message.append("text")
        var reader = message.arguments()
        do {
            _ = try reader.read(UInt32.self)
            Issue.record("reading a string as u succeeded")
        } catch {
            #expect(error.name == .invalidArgs)
            #expect(error.message.contains("\"u\"") && error.message.contains("\"s\""))
        }
    }

    @Test func readingPastTheEndThrows() {
        var reader = call().arguments()
        #expect(reader.isAtEnd)
        #expect(throws: DBusError.self) { try reader.read(String.self) }
    }

    @Test func anyErrorBecomesFailedUnlessItNamesItself() {
        struct Plain: Error {}
        struct Named: DBusErrorConvertible { var dbusError: DBusError { DBusError(.accessDenied, "no") } }
        #expect(DBusError(describing: Plain()).name == .failed)
        #expect(DBusError(describing: Named()).name == .accessDenied)
    }

    @Test func matchRulesUseTheBusSyntaxAndEscapeQuotes() {
        let rule = MatchRule(sender: "org.freedesktop.DBus", member: "NameOwnerChanged",
                             arguments: [2: "", 0: "it's"])
        #expect(rule.description ==
            "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='it'\\''s',arg2=''")
    }
}
