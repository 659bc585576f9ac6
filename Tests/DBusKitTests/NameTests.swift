import ServiceHarness
import Testing
import DBusKit

/// libdbus aborts the process on an invalid name; these prove that such a name never gets past our types.
@Suite("Validated names")
struct NameTests {
    @Test(arguments: ["/", "/org/example/NetworkActivity", "/a_b/C9"])
    func validObjectPaths(path: String) throws {
        #expect(try ObjectPath(path).rawValue == path)
    }

    @Test(arguments: ["", "org", "/org/", "//org", "/org/ex-ample", "/org/é", "/org\u{0}x"])
    func invalidObjectPathsThrowInvalidArgs(path: String) {
        #expect(throws: DBusError.self) { try ObjectPath(path) }
        do {
            _ = try ObjectPath(path)
        } catch {
            #expect(error.name == .invalidArgs)
            #expect(error.message.contains("object path"))
        }
    }

    @Test(arguments: [":1.42", "org.example.NetworkActivity", "org.kde.StatusNotifierItem-12-1"])
    func validBusNames(name: String) throws {
        _ = try BusName(name)
    }

    @Test(arguments: ["", "org", ".org.example", "org..example", "org.example.", "1org.example",
                      String(repeating: "a.", count: 200) + "b"])
    func invalidBusNames(name: String) {
        #expect(throws: DBusError.self) { try BusName(name) }
    }

    /// Strings from outside arrive as values, not literals: a literal would be checked by a precondition.
    @Test func interfaceMemberAndErrorNamesAreChecked() throws {
        let names = ["org.example.NetworkActivity", "BeginWithTimeout", "org.example.Error.NotOwner",
                     "NetworkActivity", "Begin.With", "", "Error"]
        _ = try InterfaceName(names[0])
        _ = try MemberName(names[1])
        _ = try ErrorName(names[2])
        #expect(throws: DBusError.self) { try InterfaceName(names[3]) }
        #expect(throws: DBusError.self) { try MemberName(names[4]) }
        #expect(throws: DBusError.self) { try MemberName(names[5]) }
        #expect(throws: DBusError.self) { try ErrorName(names[6]) }
    }

    /// Random strings from the characters that names are made of and that break them: whatever our types let
    /// through is handed to libdbus where it checks names and aborts on an invalid one. Reaching the end of the
    /// test is the proof. (Error names never come from outside: the service's are constants, and those it reads
    /// come from libdbus.)
    @Test func noStringThatPassesValidationMakesLibdbusAbort() {
        // Segments joined as names are, from characters that are allowed in some kinds and not in others.
        let alphabet = Array("_-a1Zé \u{0}\u{7}*/.:")
        var random = SeededGenerator.forTest("noStringThatPassesValidationMakesLibdbusAbort")
        func segment() -> String {
            String((0..<Int.random(in: 0...3, using: &random)).map { _ in
                random.next() % 4 == 0 ? alphabet.randomElement(using: &random)! : "abc".randomElement(using: &random)!
            })
        }
        var passed = (paths: 0, buses: 0, interfaces: 0, members: 0)
        for _ in 0..<20_000 {
            let text = ["", "/", ":", "."].randomElement(using: &random)!
                + (0..<Int.random(in: 1...4, using: &random)).map { _ in segment() }
                    .joined(separator: ["/", "."].randomElement(using: &random)!)
            let path = try? ObjectPath(text)
            let bus = try? BusName(text)
            let interface = try? InterfaceName(text)
            let member = try? MemberName(text)
            if path != nil { passed.paths += 1 }
            if bus != nil { passed.buses += 1 }
            if interface != nil { passed.interfaces += 1 }
            if member != nil { passed.members += 1 }
            let call = Message.methodCall(destination: bus, path: path ?? "/", interface: interface,
                                          member: member ?? "M")
            _ = Message.signal(path: path ?? "/", interface: interface ?? "a.b", member: member ?? "M")
            if let path { call.append(path) }
        }
        // The alphabet makes valid names of every kind often enough that each was handed over.
        #expect(passed.paths > 100 && passed.buses > 100 && passed.interfaces > 100 && passed.members > 100,
                "\(passed)")
    }

    @Test(arguments: ["", "garbage", "unix:", "unix:path=", "unix:path=/nonexistent/socket", "tcp:host=,port=x",
                      "unix:path=/tmp/a\u{0}b", "unix:abstract=\u{1}", "nonce-tcp:", String(repeating: "x", count: 5000)])
    func aBadBusAddressIsAnErrorNotAnAbort(address: String) {
        #expect(throws: DBusError.self) { try Connection(bus: .address(address)) }
    }
}
