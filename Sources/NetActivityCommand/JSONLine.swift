import FoundationEssentials

/// One line of JSON, keys in snake_case and sorted, so that output is the same for the same state.
func encodeJSON(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Encoding these plain structs of strings and numbers cannot fail.
    return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
}
