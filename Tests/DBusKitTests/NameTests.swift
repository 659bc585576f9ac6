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
}
