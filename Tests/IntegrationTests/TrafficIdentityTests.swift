import DBusKit
import Foundation
import NetworkActivityInterface
import ServiceHarness
import Testing

/// Whose an app's traffic is, with real user and network namespaces: any user may run `unshare -Urn` and be
/// root there, and the kernel's `bpf_get_socket_uid` then answers 0 for that user's sockets. The service believes
/// the app's slice instead (`TrafficVisibility.user`), so a user in their own namespaces is still themselves and
/// crowds no one else out of the followed apps. Not one of the serialized suites: it looks only at its own
/// cgroups.
@Suite("Whose traffic it is, in a user's own namespaces",
       .enabled(if: ApplicationCgroup.canBeMade, "counting needs root and a writable cgroup v2 tree"))
struct TrafficIdentityTests {

    /// As `user`, in `cgroup`: a user namespace and a network namespace of its own (`unshare -Urn`), a veth pair
    /// made inside, and UDP sent out of it at `bytesPerSecond` for `seconds` to a neighbour that is only an entry
    /// of the table (no answer is needed: the kernel counts what leaves).
    static func sendFromOwnNamespaces(_ cgroup: ApplicationCgroup, as user: UInt32, bytesPerSecond: Int,
                                      seconds: Double, bus: PrivateBus) throws -> BackgroundProcess {
        let sender = try ReachableCopies.of(Paths.testTools.appendingPathComponent("send-udp.py")).path
        let inside = ["/usr/sbin/ip link add na0 type veth peer name na1",
                      "/usr/sbin/ip link set na0 up", "/usr/sbin/ip link set na1 up",
                      "/usr/sbin/ip addr add 10.77.0.1/24 dev na0",
                      "/usr/sbin/ip neigh add 10.77.0.2 lladdr 02:00:00:00:77:02 dev na0 nud permanent",
                      "exec /usr/bin/python3 \(sender) 10.77.0.2 9 \(bytesPerSecond) \(seconds)"].joined(separator: " && ")
        let command = #"echo $$ > "\#(cgroup.unit.path)/cgroup.procs" && exec /usr/bin/setpriv --reuid=\#(user) "#
            + #"--regid=\#(user) --clear-groups /usr/bin/unshare -Urn /bin/sh -c '\#(inside)'"#
        return try BackgroundProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command], bus: bus)
    }

    /// The veth driver, which a user's namespace cannot load.
    static func loadVeth() {
        _ = try? runTool("/usr/sbin/modprobe", ["veth"], bus: nil)
    }

    /// As a user of the test's own, not 65534: each user's apps are followed 32 at a time across the machine, and
    /// another test's or copy's crowd of 65534's would take them.
    @Test func aUserInTheirOwnUserNamespaceIsStillThemselves() throws {
        Self.loadVeth()
        let person = try ThrowawayUser()
        let uid = try person.uid
        let bus = try PrivateBus()
        let service = try TrafficTests.systemService(bus)
        let listener = try SignalListener(bus)
        try listener.readActivities()
        let app = try ApplicationCgroup(desktopApp: "app-gnome-ownnamespaces", user: uid)

        let sender = try Self.sendFromOwnNamespaces(app, as: uid, bytesPerSecond: 400_000, seconds: 5,
                                                    bus: bus)
        let shown = try TrafficTests.awaitTraffic(listener) { $0.owner == app.path }
        #expect(shown.user == uid && shown.application == "ownnamespaces", "\(shown)\n\(service.log)")
        #expect(sender.exitStatus(within: .seconds(30)) == 0, "\(sender.lines)")
        _ = try TrafficTests.awaitEnd(of: shown.id, listener)

        // Its history entry and its usage row are its user's too, on the one network of every other namespace.
        let client = try RawClient(bus)
        let history = try client.call(ServiceMembers.getHistory.serviceCall(0))
        let entry = try #require(history.first { $0.id == shown.id }, "\(history)")
        #expect(entry.user == uid, "\(entry)")
        let rows: [UsageRecord] = try client.call(UsageMembers.getUsage.serviceCall("", true))
        // Another copy of the suite has an app of this name, of its own user.
        let row = try #require(rows.first { $0.application == "ownnamespaces" && $0.privateTo == uid }, "\(rows)")
        #expect(row.user == uid && row.privateTo == uid && row.network == "other-namespaces", "\(row)")
        #expect(!rows.contains { $0.application == "ownnamespaces" && $0.user == 0 }, "\(rows)")
    }

    /// Forty apps of one user, each in namespaces of its own, are that user's 32 followed apps and 8 waiting;
    /// the machine's download beside them, root's, still shows.
    @Test func fortyAppsInTheirOwnNamespacesCrowdOutNoOneElse() throws {
        Self.loadVeth()
        let person = try ThrowawayUser()
        let uid = try person.uid
        let bus = try PrivateBus()
        let service = try TrafficTests.systemService(bus)
        let listener = try SignalListener(bus)
        try listener.readActivities()
        var apps: [ApplicationCgroup] = []
        var senders: [BackgroundProcess] = []
        for number in 0..<40 {
            let app = try ApplicationCgroup(desktopApp: "app-gnome-crowd\(number)", user: uid)
            apps.append(app)
            senders.append(try Self.sendFromOwnNamespaces(app, as: uid, bytesPerSecond: 200_000,
                                                          seconds: 14, bus: bus))
        }
        let crowdPaths = Set(apps.map(\.path))
        // Once the crowd is followed (its first rows show), the machine's service begins its download.
        _ = try TrafficTests.awaitTraffic(listener, timeout: .seconds(20)) { crowdPaths.contains($0.owner) }
        let server = try PacedServer()
        let machine = try ApplicationCgroup(unitName: "crowd-check.service", slice: "system.slice")
        let download = try server.download(bytesPerSecond: TrafficTests.fastRate, seconds: 6, in: machine, bus: bus)
        // Awaited with a deadline, the one a crowd of root's would have kept it from (it never showed in 10 s).
        let shown = try TrafficTests.awaitTraffic(listener, timeout: .seconds(10)) { $0.owner == machine.path }
        #expect(shown.user == 0 && shown.application == "crowd-check.service", "\(shown)")
        let crowd = TrafficTests.trafficSeen(listener).filter { crowdPaths.contains($0.owner) }
        #expect(!crowd.isEmpty && crowd.allSatisfy { $0.user == uid }, "\(crowd.filter { $0.user != uid })")
        #expect(Set(crowd.map(\.owner)).count <= 32, "one user follows at most 32 apps at once")
        #expect(download.exitStatus(within: .seconds(30)) == 0)
        for sender in senders { _ = sender.exitStatus(within: .seconds(30)) }
        _ = service
    }
}
