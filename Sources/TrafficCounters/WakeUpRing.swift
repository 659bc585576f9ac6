// SPDX-License-Identifier: Apache-2.0
import CKernelCounters
#if canImport(Glibc)
import Glibc
#endif

/// A BPF ring buffer that the counting program writes to and the service reads: the kernel makes its descriptor
/// readable when a record waits, so the service's loop sleeps on it like on a socket. Read as libbpf's ringbuf.c
/// reads one: the consumer's position in a page the service writes, the producer's and the data (mapped twice in
/// a row, so that a record never wraps) in pages it only reads.
final class WakeUpRing {
    /// Room for about 680 wake-ups of 24 bytes, or a page where pages are larger (64 KiB on some arm64 and
    /// ppc64le kernels), since the kernel wants a multiple of the page size. What does not fit is not written, and
    /// the app stays wakeable (`CountingProgram`): it is found at its next packet once the service has read.
    let size: Int
    let descriptor: Int32
    private let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    private let consumerPage: UnsafeMutableRawPointer
    private let producerPages: UnsafeMutableRawPointer

    /// The ring's size where pages are `pageSize` bytes: 16 KiB, or one page where pages are larger.
    static func size(pageSize: Int) -> Int {
        max(16_384, pageSize)
    }

    init() throws(TrafficCountingUnavailable) {
        size = Self.size(pageSize: pageSize)
        descriptor = ckc_map_create(BPF_MAP_TYPE_RINGBUF.rawValue, 0, 0, UInt32(size), "netact_wakeups")
        guard descriptor >= 0 else {
            throw TrafficCountingUnavailable(description: "the kernel refused a BPF ring buffer (\(TrafficCounters.words(errno))); counting needs Linux 5.8 or later, as root")
        }
        let consumer = mmap(nil, pageSize, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        let producer = mmap(nil, pageSize + 2 * size, PROT_READ, MAP_SHARED, descriptor, off_t(pageSize))
        guard let consumer, consumer != MAP_FAILED, let producer, producer != MAP_FAILED else {
            close(descriptor)
            throw TrafficCountingUnavailable(description: "cannot map the BPF ring buffer: \(TrafficCounters.words(errno))")
        }
        consumerPage = consumer
        producerPages = producer
    }

    deinit {
        munmap(consumerPage, pageSize)
        munmap(producerPages, pageSize + 2 * size)
        close(descriptor)
    }

    /// Calls `body` with each record written since the last call, then hands their room back to the kernel.
    func consume(_ body: (UnsafeRawBufferPointer) -> Void) {
        let consumerPosition = consumerPage.assumingMemoryBound(to: UInt64.self)
        let data = producerPages + pageSize
        var position = ckc_load_acquire_64(consumerPosition)
        let end = ckc_load_acquire_64(producerPages.assumingMemoryBound(to: UInt64.self))
        let mask = UInt64(size - 1)
        while position < end {
            let header = data + Int(position & mask)
            let length = ckc_load_acquire_32(header.assumingMemoryBound(to: UInt32.self))
            // Reserved but not yet written: the rest comes with the next wake-up.
            if length & CKC_RINGBUF_BUSY != 0 { break }
            let size = Int(length & ~(CKC_RINGBUF_BUSY | CKC_RINGBUF_DISCARD))
            if length & CKC_RINGBUF_DISCARD == 0 {
                body(UnsafeRawBufferPointer(start: header + Int(CKC_RINGBUF_HEADER_SIZE), count: size))
            }
            position += UInt64((size + Int(CKC_RINGBUF_HEADER_SIZE) + 7) & ~7)
            ckc_store_release_64(consumerPosition, position)
        }
    }
}
