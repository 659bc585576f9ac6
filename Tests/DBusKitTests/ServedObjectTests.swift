import DBusKit
import TestSupport
import Testing

/// The rules `ServedObject` serves every declared interface by, on calls built in memory: no bus involved.
@Suite("Objects served from declarations")
struct ServedObjectTests {
    final class Counter {
        var total: UInt32 = 0
        var repliesAnnounced = 0
    }

    static let interface: InterfaceName = "org.example.Counter"
    static let declaration = InterfaceDeclaration<Counter>(
        interface,
        methods: [
            MethodDeclaration("Add", inputs: [.init("amount", "u")], outputs: [.init("total", "u")]) {
                counter, call throws(DBusError) in
                var arguments = call.arguments()
                counter.total += try arguments.read(UInt32.self)
                return call.makeReturn(with: counter.total)
            },
            MethodDeclaration("Refuse") { _, _ throws(DBusError) in throw DBusError(.accessDenied, "never") },
        ],
        properties: [
            PropertyDeclaration("Total", UInt32.self, announcesChanges: true) { $0.total },
            PropertyDeclaration("Name", String.self, announcesChanges: false) { _ in "counter" },
        ],
        signals: [SignalDeclaration("Overflowed", arguments: [.init("total", "u")])]
    )

    /// A counter served at `/counter`, in memory.
    final class Scene {
        let counter = Counter()
        let bus = InMemoryBus()
        let object: ServedObject

        init() {
            object = ServedObject(counter, at: "/counter", interfaces: [ServedObjectTests.declaration],
                                  introspectionXML: "<node/>", send: bus.send,
                                  beforeReply: { $0.repliesAnnounced += 1 })
        }

        /// What the object sends for one call.
        func call(
            _ interface: InterfaceName?, _ member: MemberName, expectsReply: Bool = true,
            _ arguments: (inout MessageWriter) -> Void = { _ in }
        ) -> [Message] {
            bus.call(object, interface, member, expectsReply: expectsReply, arguments)
        }

        func errorName(_ interface: InterfaceName?, _ member: MemberName,
                       _ arguments: (inout MessageWriter) -> Void = { _ in }) -> String? {
            try? bus.errorName(object, interface, member, arguments)
        }
    }

    @Test func aMethodGetsItsArgumentsAndItsReplyIsTheOnlyOne() throws {
        let scene = Scene()
        let replies = scene.call(Self.interface, "Add") { $0.append(UInt32(5)) }
        try #require(replies.count == 1)
        #expect(replies[0].type == .methodReturn)
        var reply = replies[0].arguments()
        #expect(try reply.read(UInt32.self) == 5)
        #expect(scene.counter.repliesAnnounced == 1, "beforeReply runs before each reply")
    }

    @Test func aCallWithoutAnInterfaceFindsTheMethodByName() throws {
        let scene = Scene()
        let replies = scene.call(nil, "Add") { $0.append(UInt32(2)) }
        var reply = try #require(replies.first).arguments()
        #expect(try reply.read(UInt32.self) == 2)
    }

    @Test func aCallThatAsksForNoReplyGetsNoneEvenAnError() {
        let scene = Scene()
        #expect(scene.call(Self.interface, "Add", expectsReply: false) { $0.append(UInt32(1)) }.isEmpty)
        #expect(scene.counter.total == 1)
        #expect(scene.call(Self.interface, "Nope", expectsReply: false).isEmpty)
        #expect(scene.call(Self.interface, "Refuse", expectsReply: false).isEmpty)
    }

    @Test func wrongArgumentsAreInvalidArgsNamingTheSignatureAndChangeNothing() throws {
        let scene = Scene()
        let replies = scene.call(Self.interface, "Add") { $0.append("five") }
        #expect(replies.first?.errorName == ErrorName.invalidArgs.rawValue)
        var message = try #require(replies.first).arguments()
        #expect(try message.read(String.self).contains("\"u\""))
        #expect(scene.errorName(Self.interface, "Add") == ErrorName.invalidArgs.rawValue, "no arguments")
        #expect(scene.counter.total == 0)
    }

    @Test func unknownMembersAndInterfacesHaveTheStandardErrors() {
        let scene = Scene()
        #expect(scene.errorName(Self.interface, "Subtract") == ErrorName.unknownMethod.rawValue)
        #expect(scene.errorName(nil, "Subtract") == ErrorName.unknownMethod.rawValue)
        #expect(scene.errorName("org.example.Other", "Add") == ErrorName.unknownInterface.rawValue)
        #expect(scene.errorName(StandardInterface.properties, "Frob") == ErrorName.unknownMethod.rawValue)
        #expect(scene.errorName(Self.interface, "Refuse") == ErrorName.accessDenied.rawValue,
                "a handler's own error is the reply")
    }

    @Test func peerIsLeftToLibdbus() {
        let scene = Scene()
        let call = Message.methodCall(destination: nil, path: "/counter", interface: StandardInterface.peer,
                                      member: StandardInterface.ping.name)
        #expect(scene.object.handle(call) == .notHandled)
    }

    @Test func propertiesAreReadOneOrAllAndNeverSet() throws {
        let scene = Scene()
        _ = scene.call(Self.interface, "Add") { $0.append(UInt32(3)) }
        var got = try #require(scene.call(StandardInterface.properties, StandardInterface.get.name) {
            $0.append(Self.interface.rawValue)
            $0.append("Total")
        }.first).arguments()
        #expect(try got.read(ReceivedVariant.self).decode(UInt32.self) == 3)

        var all = try #require(scene.call(StandardInterface.properties, StandardInterface.getAll.name) { $0.append("") }.first)
            .arguments()
        let values = try all.read([String: ReceivedVariant].self)
        #expect(try values["Total"]?.decode(UInt32.self) == 3)
        #expect(try values["Name"]?.decode(String.self) == "counter")

        #expect(scene.errorName(StandardInterface.properties, StandardInterface.get.name) {
            $0.append(Self.interface.rawValue)
            $0.append("Nope")
        } == ErrorName.unknownProperty.rawValue)
        #expect(scene.errorName(StandardInterface.properties, StandardInterface.getAll.name) { $0.append("org.example.Other") }
                == ErrorName.unknownInterface.rawValue)
        #expect(scene.errorName(StandardInterface.properties, StandardInterface.set.name) {
            $0.append(Self.interface.rawValue)
            $0.append("Total")
            $0.append(Variant(UInt32(9)))
        } == ErrorName.propertyReadOnly.rawValue)
        #expect(scene.errorName(StandardInterface.properties, StandardInterface.get.name) { $0.append("x") }
                == ErrorName.invalidArgs.rawValue)
        #expect(scene.counter.total == 3)
    }

    @Test func introspectReturnsTheGivenXML() throws {
        let scene = Scene()
        var reply = try #require(scene.call(StandardInterface.introspectable, StandardInterface.introspect.name).first).arguments()
        #expect(try reply.read(String.self) == "<node/>")
    }

    @Test func propertiesChangedCarriesTheValues() throws {
        let scene = Scene()
        let signal = scene.object.makePropertiesChanged(of: Self.interface, [ChangedProperty("Total", UInt32(7))])
        #expect(signal.isSignal(interface: StandardInterface.properties, member: StandardInterface.propertiesChanged.name))
        #expect(signal.path == "/counter")
        var arguments = signal.arguments()
        #expect(try arguments.read(String.self) == Self.interface.rawValue)
        #expect(try arguments.read([String: ReceivedVariant].self)["Total"]?.decode(UInt32.self) == 7)
        #expect(try arguments.read([String].self).isEmpty)
    }

    @Test func aSignalCacheBuildsOncePerKeyAndHandsOutCopies() {
        var cache = SignalCache<Bool>()
        var built = 0
        let build = { () -> Message in
            built += 1
            return Message.signal(path: "/counter", interface: Self.interface, member: "Overflowed")
        }
        let first = cache.signal(for: true, build: build)
        let second = cache.signal(for: true, build: build)
        _ = cache.signal(for: false, build: build)
        #expect(built == 2, "one build per key")
        #expect(first !== second, "each is a copy of its own, for libdbus to number")
    }
}
