import DesktopIndicator
import Testing

@Suite enum TrayAppearanceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let mode: IdleMode, visible: Bool
        let inTray: Bool, active: Bool, look: IndicatorLook
        var testDescription: String { "\(mode), \(visible ? "visible" : "hidden")" }
    }

    static let cases = [
        Case(mode: .hide, visible: true, inTray: true, active: true, look: .active),
        Case(mode: .hide, visible: false, inTray: false, active: true, look: .idle),
        Case(mode: .passive, visible: true, inTray: true, active: true, look: .active),
        Case(mode: .passive, visible: false, inTray: true, active: false, look: .idle),
        Case(mode: .show, visible: true, inTray: true, active: true, look: .active),
        Case(mode: .show, visible: false, inTray: true, active: true, look: .idle),
    ]

    @Test(arguments: cases)
    static func eachIdleModeAndVisibility(_ expected: Case) {
        let appearance = TrayAppearance(isVisible: expected.visible, activeCount: expected.visible ? 1 : 0,
                                        labels: expected.visible ? ["mail"] : [], idleMode: expected.mode)
        #expect(appearance.isInTray == expected.inTray)
        #expect(appearance.isActive == expected.active)
        #expect(appearance.look == expected.look)
        #expect(appearance.summary == (expected.visible ? "1 active: mail" : "No network activity"))
    }

    @Test static func theLabelsReadLastAreCounted() {
        // ActiveCount said 3, then ListActivities found two: the tooltip names and counts the two.
        let appearance = TrayAppearance(isVisible: true, activeCount: 3, labels: ["a", "b"], idleMode: .hide)
        #expect(appearance.summary == "2 active: a, b")
    }
}
