// SPDX-License-Identifier: Apache-2.0
import DBusKit

/// What a tray item shows and answers: the object hosts read at `/StatusNotifierItem`, served from the interface
/// `ItemInterface.swift` declares, and the `New*` signals that tell them to read again.
///
/// It meets the bus only through the served object's `send`: `StatusNotifierItem` serves it on a connection, the
/// tests serve it in memory.
final class ItemObject {
    /// A name for the item that stays the same across runs (`Id`).
    let id: String
    /// What sort of item it is (`Category`).
    let category: String
    private(set) var content: ItemContent
    /// Called on a click (`Activate`) with the screen position the host gives.
    let onActivate: (_ x: Int32, _ y: Int32) -> Void
    /// The object that serves the interface, which sends the replies and signals.
    private(set) var object: ServedObject!

    init(id: String, category: String, content: ItemContent, send: @escaping (Message) -> Void,
         onActivate: @escaping (_ x: Int32, _ y: Int32) -> Void) {
        self.id = id
        self.category = category
        self.content = content
        self.onActivate = onActivate
        object = ServedObject(self, at: StatusNotifierItem.objectPath, interfaces: [Self.declaration],
                              introspectionXML: Self.introspectionXML, send: send)
    }

    /// Shows `newContent`; when `announcing`, tells hosts what changed with `NewTitle`, `NewIcon`,
    /// `NewAttentionIcon`, `NewToolTip` and `NewStatus`. Returns whether it announced anything.
    @discardableResult
    func update(_ newContent: ItemContent, announcing: Bool) -> Bool {
        let old = content
        content = newContent
        guard announcing, old != newContent else { return false }
        if old.title != newContent.title { object.emit(object.makeSignal(ItemMembers.newTitle)) }
        if old.iconName != newContent.iconName || old.iconPixmaps != newContent.iconPixmaps {
            object.emit(object.makeSignal(ItemMembers.newIcon))
        }
        if old.attentionIconName != newContent.attentionIconName {
            object.emit(object.makeSignal(ItemMembers.newAttentionIcon))
        }
        if old.toolTip != newContent.toolTip { object.emit(object.makeSignal(ItemMembers.newToolTip)) }
        if old.status != newContent.status {
            object.emit(object.makeSignal(ItemMembers.newStatus, newContent.status.rawValue))
        }
        return true
    }

    /// Says `Id` and `Menu` with `PropertiesChanged`, unchanged: GNOME's AppIndicator extension (46) sometimes
    /// forgets them by a race of its own just after a registration, and then neither shows the item nor drops it;
    /// the signal fills its cache again.
    func announceIdentity() {
        object.emit(object.makePropertiesChanged(of: StatusNotifierItem.interface, [
            ChangedProperty(ItemMembers.id.name, id), ChangedProperty(ItemMembers.menu.name, MenuObject.path),
        ]))
    }
}
