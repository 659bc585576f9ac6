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

    enum Size {
        case word
        case doubleWord

        var code: UInt8 { UInt8(self == .word ? BPF_W : BPF_DW) }
    }

    enum Condition {
        case equal
        case notEqual
        case below
        case atLeast
        /// Below, the two taken as signed numbers.
        case signedBelow
        /// At least, the two taken as signed numbers.
        case signedAtLeast

        var code: UInt8 {
            switch self {
            case .equal: UInt8(BPF_JEQ)
            case .notEqual: UInt8(BPF_JNE)
            case .below: UInt8(BPF_JLT)
            case .atLeast: UInt8(BPF_JGE)
            case .signedBelow: UInt8(BPF_JSLT)
            case .signedAtLeast: UInt8(BPF_JSGE)
            }
        }
    }

    /// linux/bpf.h's and linux/bpf_common.h's names, as one byte of an instruction's code.
    private static func code(_ parts: Int32...) -> UInt8 { UInt8(parts.reduce(0, |)) }

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
        emit(Self.code(BPF_ALU64, BPF_MOV, BPF_X), destination, source)
    }

    /// `destination = value`
    mutating func move(_ destination: Register, _ value: Int32) {
        emit(Self.code(BPF_ALU64, BPF_MOV, BPF_K), destination, immediate: value)
    }

    /// `destination += value`
    mutating func add(_ destination: Register, _ value: Int32) {
        emit(Self.code(BPF_ALU64, BPF_ADD, BPF_K), destination, immediate: value)
    }

    /// `destination += source`
    mutating func add(_ destination: Register, _ source: Register) {
        emit(Self.code(BPF_ALU64, BPF_ADD, BPF_X), destination, source)
    }

    /// `destination -= source`
    mutating func subtract(_ destination: Register, _ source: Register) {
        emit(Self.code(BPF_ALU64, BPF_SUB, BPF_X), destination, source)
    }

    /// `destination *= value`
    mutating func multiply(_ destination: Register, _ value: Int32) {
        emit(Self.code(BPF_ALU64, BPF_MUL, BPF_K), destination, immediate: value)
    }

    /// `destination /= source`, unsigned; the kernel makes a division by zero 0.
    mutating func divide(_ destination: Register, _ source: Register) {
        emit(Self.code(BPF_ALU64, BPF_DIV, BPF_X), destination, source)
    }

    /// `destination = 64-bit value` (two instruction slots).
    mutating func load64(_ destination: Register, _ value: UInt64) {
        emit(Self.code(BPF_LD, BPF_DW, BPF_IMM), destination, immediate: Int32(truncatingIfNeeded: value))
        emit(0, immediate: Int32(truncatingIfNeeded: value >> 32))
    }

    /// `destination = the map behind descriptor`, which the kernel replaces with the map itself at load.
    mutating func loadMap(_ destination: Register, descriptor: Int32) {
        emit(Self.code(BPF_LD, BPF_DW, BPF_IMM), destination, Register(number: UInt8(BPF_PSEUDO_MAP_FD)),
             immediate: descriptor)
        emit(0)
    }

    /// `destination = *(size *)(base + offset)`
    mutating func load(_ size: Size, _ destination: Register, from base: Register, _ offset: Int16) {
        emit(Self.code(BPF_LDX, BPF_MEM) | size.code, destination, base, offset: offset)
    }

    /// `*(size *)(base + offset) = source`
    mutating func store(_ size: Size, _ source: Register, to base: Register, _ offset: Int16) {
        emit(Self.code(BPF_STX, BPF_MEM) | size.code, base, source, offset: offset)
    }

    /// `*(size *)(base + offset) = value`
    mutating func store(_ size: Size, _ value: Int32, to base: Register, _ offset: Int16) {
        emit(Self.code(BPF_ST, BPF_MEM) | size.code, base, offset: offset, immediate: value)
    }

    /// `*(u64 *)(base + offset) += source`, atomically: packets of one app arrive on every CPU at once.
    mutating func atomicAdd(_ source: Register, to base: Register, _ offset: Int16) {
        emit(Self.code(BPF_STX, BPF_ATOMIC, BPF_DW), base, source, offset: offset, immediate: BPF_ADD)
    }

    /// `if register <condition> value goto label`
    mutating func jump(if register: Register, _ condition: Condition, _ value: Int32, to label: String) {
        jumps.append((instructions.count, label))
        emit(Self.code(BPF_JMP, BPF_K) | condition.code, register, immediate: value)
    }

    /// `if register <condition> other goto label`
    mutating func jump(if register: Register, _ condition: Condition, _ other: Register, to label: String) {
        jumps.append((instructions.count, label))
        emit(Self.code(BPF_JMP, BPF_X) | condition.code, register, other)
    }

    /// `goto label`
    mutating func jump(to label: String) {
        jumps.append((instructions.count, label))
        emit(Self.code(BPF_JMP, BPF_JA))
    }

    /// `r0 = helper(r1, …, r5)`
    mutating func call(_ helper: bpf_func_id) {
        emit(Self.code(BPF_JMP, BPF_CALL), immediate: Int32(helper.rawValue))
    }

    mutating func exit() {
        emit(Self.code(BPF_JMP, BPF_EXIT))
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
