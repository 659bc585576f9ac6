@testable import DesktopIndicator
import Foundation
import TestSupport
import Testing

/// The tray item's declared interface is the contract in `dbus/`: every method with its arguments' names, types and
/// directions, every property with its type and access, every signal.
@Suite("The tray item's interface against its XML")
struct ItemContractTests {
    static let file = "org.kde.StatusNotifierItem.xml"

    @Test func theDeclarationIsTheXML() throws {
        let comparison = try InterfaceContract.compare(ItemObject.declaration, withFile: Self.file)
        #expect(comparison.declaredOnly == [], "declared, but not so in the XML")
        #expect(comparison.contractOnly == [], "in the XML, but not declared")
        #expect(comparison.declaredMembers == ItemMembers.all.count)
        #expect(Set(ItemMembers.all.map(\.memberName)).count == ItemMembers.all.count)
    }

    @Test func introspectAnswersTheFileItself() throws {
        let bus = InMemoryBus()
        let item = ItemObject(id: "netactivity", category: "SystemServices", content: ItemObjectTests.idle,
                              send: bus.send, onActivate: { _, _ in })
        let file = InterfaceContract.dbusFolder.appendingPathComponent(Self.file)
        #expect(try InterfaceContract.introspect(item.object, on: bus) == String(contentsOf: file, encoding: .utf8))
    }
}

/// The menu's declared interface is the contract in `dbus/`.
@Suite("The tray menu's interface against its XML")
struct MenuContractTests {
    static let file = "com.canonical.dbusmenu.xml"

    @Test func theDeclarationIsTheXML() throws {
        let comparison = try InterfaceContract.compare(MenuObject.declaration, withFile: Self.file)
        #expect(comparison.declaredOnly == [], "declared, but not so in the XML")
        #expect(comparison.contractOnly == [], "in the XML, but not declared")
        #expect(comparison.declaredMembers == MenuMembers.all.count)
        #expect(Set(MenuMembers.all.map(\.memberName)).count == MenuMembers.all.count)
    }

    @Test func introspectAnswersTheFileItself() throws {
        let bus = InMemoryBus()
        let menu = MenuObject(rows: [], send: bus.send, onEvent: { _, _ in }, onOpening: {})
        let file = InterfaceContract.dbusFolder.appendingPathComponent(Self.file)
        #expect(try InterfaceContract.introspect(menu.object, on: bus) == String(contentsOf: file, encoding: .utf8))
    }
}
