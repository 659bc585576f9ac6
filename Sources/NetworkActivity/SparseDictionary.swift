// SPDX-License-Identifier: Apache-2.0
/// Gives memory back once a crowd has gone. A Swift dictionary keeps its capacity when emptied, so one that is
/// mostly empty is rebuilt at its present size: O(n), after at least n removals, so O(1) per removal.
func compactIfSparse<Key, Value>(_ dictionary: inout [Key: Value]) {
    guard dictionary.capacity > 1024, dictionary.count * 8 < dictionary.capacity else { return }
    dictionary = Dictionary(uniqueKeysWithValues: dictionary.lazy.map { ($0.key, $0.value) })
}
