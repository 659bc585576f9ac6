// SPDX-License-Identifier: Apache-2.0
import CKernelCounters

/// eBPF instructions as pseudo-C, one line each, in the form the kernel's verifier log and bpftool print them
/// (`r2 = *(u32 *)(r6 +40)`, `if r0 != 0x0 goto pc+3`): decoded from the bytes, so that a listing committed beside
/// the programs (`Tests/Cases/counting-program-*.txt`) checks what `BPFProgramBuilder` encoded.
enum BPFListing {
    /// The lines of `instructions`; `maps` names the map descriptors they load.
    static func lines(of instructions: [bpf_insn], maps: [Int32: String]) -> [String] {
        // Numbered by instruction slot, as jumps count: a 64-bit load takes two.
        var lines: [String] = []
        var index = 0
        while index < instructions.count {
            let instruction = instructions[index]
            if Int32(instruction.code) == BPF_LD | BPF_DW | BPF_IMM, index + 1 < instructions.count {
                let high = UInt64(UInt32(bitPattern: instructions[index + 1].imm))
                let value = high << 32 | UInt64(UInt32(bitPattern: instruction.imm))
                lines.append("\(index): " + (Int32(instruction.src_reg) == BPF_PSEUDO_MAP_FD
                    ? "r\(instruction.dst_reg) = map[\(maps[instruction.imm] ?? "fd \(instruction.imm)")]"
                    : "r\(instruction.dst_reg) = 0x\(String(value, radix: 16)) ll"))
                index += 2
                continue
            }
            lines.append("\(index): " + line(instruction))
            index += 1
        }
        return lines
    }

    private static func line(_ instruction: bpf_insn) -> String {
        let code = Int32(instruction.code)
        let destination = "r\(instruction.dst_reg)", source = "r\(instruction.src_reg)"
        let value = code & BPF_X != 0 ? source : "\(instruction.imm)"
        let memory = { (base: String) in
            "*(\(size(code)) *)(\(base) \(instruction.off < 0 ? "-" : "+")\(abs(Int(instruction.off))))"
        }
        switch code & 0x07 {
        case BPF_ALU64:
            switch code & 0xf0 {
            case BPF_MOV: return "\(destination) = \(value)"
            case BPF_ADD: return "\(destination) += \(value)"
            case BPF_SUB: return "\(destination) -= \(value)"
            case BPF_MUL: return "\(destination) *= \(value)"
            case BPF_DIV: return "\(destination) /= \(value)"
            default: return "alu64 0x\(String(code, radix: 16))"
            }
        case BPF_LDX:
            return "\(destination) = \(memory(source))"
        case BPF_STX where code & 0xe0 == BPF_ATOMIC && instruction.imm == BPF_ADD:
            return "lock \(memory(destination)) += \(source)"
        case BPF_STX:
            return "\(memory(destination)) = \(source)"
        case BPF_ST:
            return "\(memory(destination)) = \(instruction.imm)"
        case BPF_JMP:
            let target = "goto pc\(instruction.off < 0 ? "-" : "+")\(abs(Int(instruction.off)))"
            switch code & 0xf0 {
            case BPF_JA: return target
            case BPF_CALL: return "call \(helperName(instruction.imm))#\(instruction.imm)"
            case BPF_EXIT: return "exit"
            case BPF_JEQ: return "if \(destination) == \(value) \(target)"
            case BPF_JNE: return "if \(destination) != \(value) \(target)"
            case BPF_JLT: return "if \(destination) < \(value) \(target)"
            case BPF_JGE: return "if \(destination) >= \(value) \(target)"
            case BPF_JSLT: return "if (s64)\(destination) < (s64)\(value) \(target)"
            case BPF_JSGE: return "if (s64)\(destination) >= (s64)\(value) \(target)"
            default: return "jmp 0x\(String(code, radix: 16))"
            }
        default:
            return "code 0x\(String(code, radix: 16))"
        }
    }

    private static func size(_ code: Int32) -> String {
        switch code & 0x18 {
        case BPF_W: "u32"
        case BPF_H: "u16"
        case BPF_B: "u8"
        default: "u64"
        }
    }

    /// The kernel's names (`enum bpf_func_id`) of the helpers the programs call.
    private static func helperName(_ id: Int32) -> String {
        let names: [bpf_func_id: String] = [
            BPF_FUNC_map_lookup_elem: "bpf_map_lookup_elem", BPF_FUNC_map_update_elem: "bpf_map_update_elem",
            BPF_FUNC_ktime_get_ns: "bpf_ktime_get_ns", BPF_FUNC_get_socket_uid: "bpf_get_socket_uid",
            BPF_FUNC_skb_cgroup_id: "bpf_skb_cgroup_id", BPF_FUNC_ringbuf_output: "bpf_ringbuf_output",
            BPF_FUNC_skb_load_bytes: "bpf_skb_load_bytes", BPF_FUNC_get_netns_cookie: "bpf_get_netns_cookie",
            BPF_FUNC_ringbuf_query: "bpf_ringbuf_query",
        ]
        return names[bpf_func_id(rawValue: UInt32(id))] ?? "helper"
    }
}
