#ifndef CKERNELCOUNTERS_SHIM_H
#define CKERNELCOUNTERS_SHIM_H

// The kernel's BPF interface, which neither glibc nor Swift's Glibc module wraps: bpf(2) through syscall(2),
// whose union of anonymous structs Swift cannot fill, so each command the traffic counters use is one small
// function here. Nothing to link: these are system calls.
#include <linux/bpf.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int ckc_bpf(int command, union bpf_attr *attr) {
    return (int)syscall(SYS_bpf, command, attr, sizeof(*attr));
}

static inline int ckc_map_create(uint32_t type, uint32_t key_size, uint32_t value_size, uint32_t max_entries,
                                 const char *name) {
    union bpf_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.map_type = type;
    attr.key_size = key_size;
    attr.value_size = value_size;
    attr.max_entries = max_entries;
    strncpy(attr.map_name, name, sizeof(attr.map_name) - 1);
    return ckc_bpf(BPF_MAP_CREATE, &attr);
}

static inline int ckc_prog_load(uint32_t type, uint32_t expected_attach_type, const struct bpf_insn *instructions,
                                uint32_t count, const char *name, char *log, uint32_t log_size) {
    union bpf_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.prog_type = type;
    attr.expected_attach_type = expected_attach_type;
    attr.insns = (uint64_t)(uintptr_t)instructions;
    attr.insn_cnt = count;
    attr.license = (uint64_t)(uintptr_t)"GPL";
    attr.log_buf = (uint64_t)(uintptr_t)log;
    attr.log_size = log_size;
    attr.log_level = log_size > 0 ? 1 : 0;
    strncpy(attr.prog_name, name, sizeof(attr.prog_name) - 1);
    return ckc_bpf(BPF_PROG_LOAD, &attr);
}

// A link to a cgroup is always one of many programs there (BPF_F_ALLOW_MULTI), and ends with its descriptor.
static inline int ckc_link_create(int program, int cgroup, uint32_t attach_type) {
    union bpf_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.link_create.prog_fd = (uint32_t)program;
    attr.link_create.target_fd = (uint32_t)cgroup;
    attr.link_create.attach_type = attach_type;
    return ckc_bpf(BPF_LINK_CREATE, &attr);
}

// BPF_MAP_LOOKUP_ELEM (flags 0), BPF_MAP_UPDATE_ELEM, BPF_MAP_LOOKUP_AND_DELETE_ELEM or BPF_MAP_DELETE_ELEM (no
// value) of one element; BPF_MAP_GET_NEXT_KEY, whose next key takes the value's place (no key: the first).
static inline int ckc_map_element(int command, int map, const void *key, void *value, uint64_t flags) {
    union bpf_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.map_fd = (uint32_t)map;
    attr.key = (uint64_t)(uintptr_t)key;
    attr.value = (uint64_t)(uintptr_t)value;
    attr.flags = flags;
    return ckc_bpf(command, &attr);
}

// Runs a cgroup_skb program once on a packet made of `data` (BPF_PROG_TEST_RUN); returns its result, or -1.
static inline int ckc_prog_test_run(int program, const void *data, uint32_t size) {
    union bpf_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.test.prog_fd = (uint32_t)program;
    attr.test.data_in = (uint64_t)(uintptr_t)data;
    attr.test.data_size_in = size;
    attr.test.repeat = 1;
    return ckc_bpf(BPF_PROG_TEST_RUN, &attr) == 0 ? (int)attr.test.retval : -1;
}

// What the kernel tells of a program (BPF_OBJ_GET_INFO_BY_FD); zeros when it tells nothing.
static inline struct bpf_prog_info ckc_program_info(int program) {
    struct bpf_prog_info info;
    memset(&info, 0, sizeof(info));
    union bpf_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.info.bpf_fd = (uint32_t)program;
    attr.info.info_len = sizeof(info);
    attr.info.info = (uint64_t)(uintptr_t)&info;
    if (ckc_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) != 0) memset(&info, 0, sizeof(info));
    return info;
}

// The ring buffer's positions, shared with the kernel's producers on other CPUs (linux/bpf.h's ring buffer
// protocol, as libbpf's ringbuf.c reads it).
static inline uint64_t ckc_load_acquire_64(const uint64_t *position) { return __atomic_load_n(position, __ATOMIC_ACQUIRE); }
static inline uint32_t ckc_load_acquire_32(const uint32_t *header) { return __atomic_load_n(header, __ATOMIC_ACQUIRE); }
static inline void ckc_store_release_64(uint64_t *position, uint64_t value) {
    __atomic_store_n(position, value, __ATOMIC_RELEASE);
}
static const uint32_t CKC_RINGBUF_BUSY = BPF_RINGBUF_BUSY_BIT;
static const uint32_t CKC_RINGBUF_DISCARD = BPF_RINGBUF_DISCARD_BIT;
static const uint32_t CKC_RINGBUF_HEADER_SIZE = BPF_RINGBUF_HDR_SZ;

#endif
