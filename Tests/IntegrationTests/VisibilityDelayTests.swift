import Testing
import ServiceHarness

extension Integration {
    /// The anti-flicker delays, with short settings. Signals are awaited with deadlines; times are checked only
    /// from below (nothing may happen early), which a slow machine cannot break.
    @Suite("Visibility delays")
    struct VisibilityDelayTests {
        /// A bus, the service with these delays, a listener and a client; the service is returned so that it
        /// lives as long as the test.
        private func start(show: String, hide: String, minimumVisible: String) throws
            -> (PrivateBus, DaemonProcess, SignalListener, RawClient)
        {
            let bus = try PrivateBus()
            let service = try DaemonProcess(bus: bus, arguments: ["--show-delay", show, "--hide-delay", hide,
                                                                   "--min-visible", minimumVisible])
            return (bus, service, try SignalListener(bus), try RawClient(bus))
        }

        @Test func showsAfterTheShowDelayAndStaysTheMinimumTime() throws {
            let (bus, service, listener, client) = try start(show: "0.3", hide: "0.2", minimumVisible: "1")
            let begun = ContinuousClock.now
            let id = try client.begin()
            // Asked within the delay (by a moment this test read before the service answered), it must say no;
            // a reply that took longer than the delay tells nothing.
            let visibleBeforeTheDelay = try client.visible
            if ContinuousClock.now - begun < .milliseconds(300) { #expect(visibleBeforeTheDelay == false) }
            try listener.awaitVisibility(true)
            let shown = ContinuousClock.now
            #expect(shown - begun >= .milliseconds(300))
            #expect(try client.visible)
            // Each bound counts from a moment this test read before the service could act, never after: the
            // service decided to show before this test saw it, and received the End before its reply came back.
            let ending = ContinuousClock.now
            try client.end(id)
            #expect(try client.visible, "hidden before the hide delay")
            try listener.awaitVisibility(false)
            #expect(ContinuousClock.now - ending >= .milliseconds(200))
            #expect(ContinuousClock.now - begun >= .milliseconds(1300), "the show delay, then the minimum stay")
            try listener.settle()
            #expect(listener.visibilityHistory == [true, false])
            _ = (bus, service)
        }

        @Test func aBlipShorterThanTheShowDelayShowsNothing() throws {
            let (bus, service, listener, client) = try start(show: "2", hide: "0", minimumVisible: "0")
            try client.end(try client.begin("blip"))
            // Then real work, long enough to show: the first signal must be its true, not the blip's.
            let id = try client.begin("work")
            try listener.awaitVisibility(true, timeout: .seconds(15))
            try client.end(id)
            try listener.awaitVisibility(false)
            try listener.settle()
            #expect(listener.visibilityHistory == [true, false])
            _ = (bus, service)
        }

        @Test func aShortBreakBetweenActivitiesDoesNotHide() throws {
            let (bus, service, listener, client) = try start(show: "0", hide: "2", minimumVisible: "0")
            try client.end(try client.begin("first"))
            let second = try client.begin("second")
            try client.end(second)
            try listener.awaitVisibility(false, timeout: .seconds(15))
            try listener.settle()
            #expect(listener.visibilityHistory == [true, false])
            _ = (bus, service)
        }
    }
}
