#if DEBUG  // A fuzz target reads internals (@testable), which a debug build alone compiles for: ReleaseBuild.swift.
import DBusKit
import FuzzingSupport
import NetworkActivityInterface

extension ServiceScene {
    /// Every method, property and standard call of the service once, right, and wrong in its signature, then
    /// sequences of a program's life: begin, report, end; leave; time out.
    static func seeds() -> [String: [UInt8]] {
        func call(_ member: MemberName, _ interface: InterfaceName? = ServiceNames.interface, slot: UInt8 = 0,
                  noReply: Bool = false, _ arguments: (inout MessageWriter) -> Void = { _ in }) -> [UInt8] {
            let message = Message.methodCall(destination: ServiceNames.busName,
                                             path: interface.map(ServiceNames.objectPath(serving:)) ?? ServiceNames.objectPath,
                                             interface: interface, member: member)
            message.appendArguments(arguments)
            message.expectsReply = !noReply
            return [slot << 3] + WireMessage.bytes(of: message)
        }
        func clock(_ step: UInt8) -> [UInt8] { [4, step] }
        func leave(_ slot: UInt8) -> [UInt8] { [5, slot] }
        let begin = call(ServiceMembers.begin.name) { $0.append("mail") }
        let timed = call(ServiceMembers.beginWithTimeout.name) { $0.append("backup"); $0.append(UInt32(30)) }
        return [
            "begin": begin,
            "usage": call(UsageMembers.getUsage.name, ServiceNames.usageInterface) { $0.append("2026-02-30"); $0.append(true) }
                + call(UsageMembers.clearUsage.name, ServiceNames.usageInterface),
            "pause": begin + call(PauseMembers.pause.name, ServiceNames.pauseInterface) { $0.append(UInt32(1)) }
                + call(PauseMembers.resume.name, ServiceNames.pauseInterface, slot: 2) { $0.append(UInt32(9)) },
            "begin-no-reply": call(ServiceMembers.begin.name, noReply: true) { $0.append("quiet") },
            "begin-without-interface": call(ServiceMembers.begin.name, nil) { $0.append("mail") },
            "begin-wrong-signature": call(ServiceMembers.begin.name) { $0.append(UInt32(1)) },
            "begin-control": call(ServiceMembers.begin.name) { $0.append("a\u{7}b") },
            "timed": timed,
            "timed-zero": call(ServiceMembers.beginWithTimeout.name) { $0.append("x"); $0.append(UInt32(0)) },
            "end": begin + call(ServiceMembers.end.name) { $0.append(UInt32(1)) },
            "end-other": begin + call(ServiceMembers.end.name, slot: 1) { $0.append(UInt32(1)) },
            "cancel": begin + timed + call(ServiceMembers.cancel.name),
            "reset": begin + call(ServiceMembers.reset.name, slot: 4),
            "list": begin + timed + call(ServiceMembers.listActivities.name) + call(ServiceMembers.getActivities.name),
            "progress": begin + call(ServiceMembers.setProgress.name) { $0.append(UInt32(1)); $0.append(UInt32(50)) },
            "transfer": begin + call(ServiceMembers.setTransfer.name) { $0.append(UInt32(1)); $0.append(UInt64(10)); $0.append(UInt64(100)) },
            "stop": begin + call(ServiceMembers.setCancellable.name) { $0.append(UInt32(1)); $0.append(true) }
                + call(ServiceMembers.requestCancel.name, slot: 1) { $0.append(UInt32(1)) } + leave(0),
            "get": call(StandardInterface.get.name, StandardInterface.properties) {
                $0.append(ServiceNames.interface.rawValue); $0.append("Visible")
            },
            "get-all": call(StandardInterface.getAll.name, StandardInterface.properties) { $0.append(ServiceNames.interface.rawValue) },
            "set": call(StandardInterface.set.name, StandardInterface.properties) {
                $0.append(ServiceNames.interface.rawValue); $0.append("Visible"); $0.append(Variant(true))
            },
            "introspect": call(StandardInterface.introspect.name, StandardInterface.introspectable),
            "ping": call(StandardInterface.ping.name, StandardInterface.peer),
            "unknown": call("Frobnicate", "org.example.Other"),
            "leave": begin + timed + leave(0) + clock(200) + clock(255),
            "visible": begin + clock(12) + clock(12) + call(ServiceMembers.end.name) { $0.append(UInt32(1)) } + clock(12) + clock(20),
            "system": [6, 2, 1, 7] + begin + call(ServiceMembers.end.name) { $0.append(UInt32(2)) } + [6, 0],
        ]
    }
}
#endif
