// SPDX-License-Identifier: Apache-2.0
import CKernelCounters

/// Writes eBPF instructions the way systemd's `bpf-firewall.c` does, one call per instruction, with named jump
/// targets instead of counted offsets, so that a program reads top to bottom like its assembly.
struct BPFProgramBuilder {
    /// A register: r0 holds results, r1–r5 a helper's arguments (lost at each call), r6–r9 survive calls, r10
    /// is the read-only frame pointer.
    struct Register {
        let number: UInt8
        static let r0 = Register(number: 0), r1 = Register(number: 1), r2 = Register(number: 2)
        static let r3 = Register(number: 3), r4 = Register(number: 4), r6 = Register(number: 6)
        static let r7 = Register(number: 7), r8 = Register(number: 8), r9 = Register(number: 9)
        static let frame = Register(number: 10)
    }

    enum Size: UInt8 {
        case word = 0x00
        case doubleWord = 0x18
    }

    enum Condition: UInt8 {
        case equal = 0x10
        case notEqual = 0x50
        case below = 0xa0
    }

    // The instruction classes and modes of linux/bpf_common.h and linux/bpf.h.
    private static let load: UInt8 = 0x00, loadFromMemory: UInt8 = 0x01, storeImmediate: UInt8 = 0x02
    private static let storeRegister: UInt8 = 0x03, jump: UInt8 = 0x05, alu64: UInt8 = 0x07
    private static let memoryMode: UInt8 = 0x60, atomicMode: UInt8 = 0xc0, immediateMode: UInt8 = 0x00
    private static let fromRegister: UInt8 = 0x08, move: UInt8 = 0xb0, add: UInt8 = 0x00, subtract: UInt8 = 0x10
    private static let call: UInt8 = 0x80, exit: UInt8 = 0x90
    private static let pseudoMapDescriptor: UInt8 = 1

    private(set) var instructions: [bpf_insn] = []
    private var labels: [String: Int] = [:]
    private var jumps: [(index: Int, label: String)] = []

    private mutating func emit(_ code: UInt8, _ destination: Register = .r0, _ source: Register = .r0,
                               offset: Int16 = 0, immediate: Int32 = 0) {
        var instruction = bpf_insn()
        instruction.code = code
        instruction.dst_reg = destination.number
        instruction.src_reg = source.number
        instruction.off = offset
        instruction.imm = immediate
        instructions.append(instruction)
    }

    /// `destination = source`
    mutating func move(_ destination: Register, _ source: Register) {
        emit(Self.alu64 | Self.move | Self.fromRegister, destination, source)
    }

    /// `destination = value`
    mutating func move(_ destination: Register, _ value: Int32) {
        emit(Self.alu64 | Self.move, destination, immediate: value)
    }

    /// `destination += value`
    mutating func add(_ destination: Register, _ value: Int32) {
        emit(Self.alu64 | Self.add, destination, immediate: value)
    }

    /// `destination += source`
    mutating func add(_ destination: Register, _ source: Register) {
        emit(Self.alu64 | Self.add | Self.fromRegister, destination, source)
    }

    /// `destination -= source`
    mutating func subtract(_ destination: Register, _ source: Register) {
        emit(Self.alu64 | Self.subtract | Self.fromRegister, destination, source)
    }

    /// `destination = 64-bit value` (two instruction slots).
    mutating func load64(_ destination: Register, _ value: UInt64) {
        emit(Self.load | Self.doubleWordSize | Self.immediateMode, destination, immediate: Int32(truncatingIfNeeded: value))
        emit(0, immediate: Int32(truncatingIfNeeded: value >> 32))
    }

    /// `destination = the map behind descriptor`, which the kernel replaces with the map itself at load.
    mutating func loadMap(_ destination: Register, descriptor: Int32) {
        emit(Self.load | Self.doubleWordSize | Self.immediateMode, destination, Register(number: Self.pseudoMapDescriptor),
             immediate: descriptor)
        emit(0)
    }

    private static let doubleWordSize = Size.doubleWord.rawValue

    /// `destination = *(size *)(base + offset)`
    mutating func load(_ size: Size, _ destination: Register, from base: Register, _ offset: Int16) {
        emit(Self.loadFromMemory | Self.memoryMode | size.rawValue, destination, base, offset: offset)
    }

    /// `*(size *)(base + offset) = source`
    mutating func store(_ size: Size, _ source: Register, to base: Register, _ offset: Int16) {
        emit(Self.storeRegister | Self.memoryMode | size.rawValue, base, source, offset: offset)
    }

    /// `*(size *)(base + offset) = value`
    mutating func store(_ size: Size, _ value: Int32, to base: Register, _ offset: Int16) {
        emit(Self.storeImmediate | Self.memoryMode | size.rawValue, base, offset: offset, immediate: value)
    }

    /// `*(u64 *)(base + offset) += source`, atomically: packets of one app arrive on every CPU at once.
    mutating func atomicAdd(_ source: Register, to base: Register, _ offset: Int16) {
        emit(Self.storeRegister | Self.atomicMode | Self.doubleWordSize, base, source, offset: offset,
             immediate: Int32(Self.add))
    }

    /// `if register <condition> value goto label`
    mutating func jump(if register: Register, _ condition: Condition, _ value: Int32, to label: String) {
        jumps.append((instructions.count, label))
        emit(Self.jump | condition.rawValue, register, immediate: value)
    }

    /// `if register <condition> other goto label`
    mutating func jump(if register: Register, _ condition: Condition, _ other: Register, to label: String) {
        jumps.append((instructions.count, label))
        emit(Self.jump | condition.rawValue | Self.fromRegister, register, other)
    }

    /// `goto label`
    mutating func jump(to label: String) {
        jumps.append((instructions.count, label))
        emit(Self.jump)
    }

    /// `r0 = helper(r1, …, r5)`
    mutating func call(_ helper: Int32) {
        emit(Self.jump | Self.call, immediate: helper)
    }

    mutating func exit() {
        emit(Self.jump | Self.exit)
    }

    /// The next instruction is `name`, which jumps may name before or after.
    mutating func label(_ name: String) {
        labels[name] = instructions.count
    }

    /// The instructions, with each jump's offset counted to its label.
    func finished() -> [bpf_insn] {
        var resolved = instructions
        for (index, label) in jumps {
            guard let target = labels[label] else { preconditionFailure("no label \(label)") }
            resolved[index].off = Int16(target - index - 1)
        }
        return resolved
    }
}
