import NetworkActivityInterface
import DBusKit
import Foundation
import ServiceHarness
import Testing

extension Integration {
    @Suite("Activity methods on a real bus")
    struct ActivityMethodTests {
        let bus: PrivateBus
        let service: DaemonProcess

        init() throws {
            bus = try PrivateBus()
            service = try DaemonProcess(bus: bus)
        }

        @Test func theSeedScenarioShowsOnceAndHidesOnce() throws {
            let listener = try SignalListener(bus)
            let a = try RawClient(bus), b = try RawClient(bus), c = try RawClient(bus)
            let idA = try a.begin("A")
            let idB = try b.begin("B")
            try b.end(idB)
            let idC = try c.begin("C")
            try a.end(idA)
            try c.end(idC)
            try listener.awaitVisibility(false)
            try listener.settle()
            #expect(listener.visibilityHistory == [true, false])
        }

        @Test func aKilledCallersActivitiesEndAndOthersStay() throws {
            let listener = try SignalListener(bus)
            let survivor = try RawClient(bus)
            let kept = try survivor.begin("kept")
            // A real client nobody here wrote (dbus-python) that holds two activities until it is killed.
            let holder = Process()
            holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            holder.arguments = ["-c", """
                import dbus, sys, time
                bus = dbus.bus.BusConnection(sys.argv[1])
                service = bus.get_object('org.example.NetworkActivity', '/org/example/NetworkActivity')
                for label in ('download', 'upload'):
                    service.Begin(label, dbus_interface='org.example.NetworkActivity')
                print(bus.get_unique_name(), flush=True)
                time.sleep(600)
                """, bus.address]
            let output = Pipe()
            holder.standardOutput = output
            try holder.runHandingOverFiles()
            let holderName = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            try? output.fileHandleForReading.close()
            #expect(holderName.hasPrefix(":"))
            #expect(try survivor.list().filter { $0.owner == holderName }.map(\.label) == ["download", "upload"])
            kill(holder.processIdentifier, SIGKILL)
            waitForExit(holder)
            // The count goes 3 -> 1: awaited as the coalesced ActiveCount, whatever the turn it lands in.
            let changed = try listener.next { message in
                message.member == StandardInterface.propertiesChanged.name.rawValue
                    && (try? survivor.activeCount) == 1
            }
            #expect(changed != nil)
            #expect(try survivor.list().map(\.id) == [kept])
            #expect(try survivor.visible)
            try listener.settle()
            #expect(listener.visibilityHistory == [true])
        }

        @Test func aTimedActivityBegunByOneDbusSendIsEndedByAnother() throws {
            let begun = try dbusSend(bus, ServiceMembers.beginWithTimeout.name, "string:backup", "uint32:600")
            #expect(begun.succeeded, "\(begun)")
            let id = try #require(replyNumber(begun))
            let observer = try RawClient(bus)
            // The dbus-send that began it has left the bus; the activity lives on.
            #expect(try observer.list().map(\.id) == [id])
            let ended = try dbusSend(bus, ServiceMembers.end.name, "uint32:\(id)")
            #expect(ended.succeeded, "\(ended)")
            #expect(try observer.activeCount == 0)
        }

        @Test func aTimedActivityEndsByItselfAtItsDeadline() throws {
            let listener = try SignalListener(bus)
            let client = try RawClient(bus)
            let start = ContinuousClock.now
            let id = try client.beginTimed("short", seconds: 1)
            let listed = try #require(try client.list().first)
            #expect(listed.id == id && listed.label == "short")
            #expect(listed.deadline == listed.startedAt + 1_000_000)
            try listener.awaitVisibility(true)
            try listener.awaitVisibility(false, timeout: .seconds(10))
            #expect(ContinuousClock.now - start >= .seconds(1))
            #expect(try client.list().isEmpty)
        }

        @Test func cancelEndsOnlyTheCallersActivitiesTimedOnesIncluded() throws {
            let caller = try RawClient(bus), other = try RawClient(bus)
            _ = try caller.begin("one")
            _ = try caller.begin("two")
            _ = try caller.beginTimed("three", seconds: 600)
            let kept = try other.begin("other")
            #expect(try caller.cancel() == 3)
            #expect(try caller.cancel() == 0)
            #expect(try other.list().map(\.id) == [kept])
        }

        @Test func cancelThroughGdbusReturnsTheCount() throws {
            // gdbus's own connection begins nothing, so its Cancel ends nothing: the count it gets is 0.
            let holder = try RawClient(bus)
            _ = try holder.begin()
            let result = try gdbusCall(bus, ServiceMembers.cancel.name)
            #expect(result.succeeded, "\(result)")
            #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "(uint32 0,)")
            #expect(try holder.activeCount == 1)
        }

        @Test func resetEndsEveryonesActivities() throws {
            let listener = try SignalListener(bus)
            let a = try RawClient(bus), b = try RawClient(bus)
            _ = try a.begin()
            _ = try b.begin()
            _ = try b.beginTimed(seconds: 600)
            let result = try busctl(bus, "call", busName.rawValue, objectPath.rawValue, interfaceName.rawValue, ServiceMembers.reset.name.rawValue)
            #expect(result.succeeded, "\(result)")
            #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "u 3")
            #expect(try a.activeCount == 0)
            try listener.awaitVisibility(false)
        }

        @Test func listActivitiesReportsOwnersLabelsAndTimesOrderedById() throws {
            let a = try RawClient(bus), b = try RawClient(bus)
            let before = UInt64(Date().timeIntervalSince1970 * 1_000_000)
            let first = try a.begin("mail")
            let second = try b.beginTimed("backup", seconds: 30)
            let third = try a.begin("")
            let after = UInt64(Date().timeIntervalSince1970 * 1_000_000)
            let listed = try a.list()
            #expect(listed.map(\.id) == [first, second, third])
            #expect(listed.map(\.owner) == [a.name, b.name, a.name])
            #expect(listed.map(\.label) == ["mail", "backup", ""])
            #expect(listed.allSatisfy { (before...after).contains($0.startedAt) })
            #expect(listed.map { $0.deadline == nil } == [true, false, true])
            #expect(listed[1].deadline == listed[1].startedAt + 30_000_000)
        }
    }
}
