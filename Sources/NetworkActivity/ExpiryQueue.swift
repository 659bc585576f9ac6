// SPDX-License-Identifier: Apache-2.0
import HeapModule
import ProgramSupport

/// The deadlines of timed activities, earliest first.
///
/// An activity that ends early leaves its entry behind (removing from the middle of a heap is not cheap); such
/// entries are skipped when they come up and swept out once they outnumber the live ones, so memory follows
/// the number of live timed activities.
struct ExpiryQueue {
    private struct Entry: Comparable {
        let deadline: MonotonicTime
        let id: ActivityID
        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.id) < (rhs.deadline, rhs.id)
        }
    }

    private var heap = Heap<Entry>()
    private var staleCount = 0

    mutating func insert(_ id: ActivityID, deadline: MonotonicTime) {
        heap.insert(Entry(deadline: deadline, id: id))
    }

    /// Records that one entry no longer names a live activity; sweeps when most of them are such.
    mutating func noteEnded(isLive: (ActivityID) -> Bool) {
        staleCount += 1
        if staleCount > 64, staleCount * 2 > heap.count {
            heap = Heap(heap.unordered.filter { isLive($0.id) })
            staleCount = 0
        }
    }

    /// The earliest deadline of an entry that may still be live.
    var earliestDeadline: MonotonicTime? { heap.min?.deadline }

    /// Takes out the entries due at `now`, returning those that are still live, in deadline order.
    mutating func popDue(at now: MonotonicTime, isLive: (ActivityID) -> Bool) -> [ActivityID] {
        var due: [ActivityID] = []
        while let first = heap.min, first.deadline <= now {
            heap.removeMin()
            if isLive(first.id) {
                due.append(first.id)
            } else {
                staleCount -= 1
            }
        }
        return due
    }

    mutating func removeAll() {
        heap = Heap()
        staleCount = 0
    }
}
