import DesktopIndicator
import NetworkActivityClient
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
                                        activities: expected.visible ? [.example(label: "mail")] : [],
                                        idleMode: expected.mode)
        #expect(appearance.isInTray == expected.inTray)
        #expect(appearance.isActive == expected.active)
        #expect(appearance.look == expected.look)
        #expect(appearance.summary == (expected.visible ? "mail" : "No network activity"))
    }

    @Test static func theTooltipHasALinePerActivityWithHowFarItIs() {
        let appearance = TrayAppearance(
            isVisible: true, activeCount: 3,
            activities: [.example(label: "backup", percent: 45, rate: 3_200_000), .example(label: "mail")],
            idleMode: .hide)
        #expect(appearance.summary == "backup — 45 % · 3.2 MB/s\nmail", "the activities are the later word")
    }

    @Test static func whileTheActivitiesAreUnreadTheCountIsShown() {
        #expect(TrayAppearance(isVisible: true, activeCount: 3, activities: [], idleMode: .hide).summary == "3 active")
    }
}
