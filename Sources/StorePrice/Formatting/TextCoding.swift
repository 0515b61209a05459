/// Coding a value as one string, checked as the value's own initializer checks it: the shared
/// part of the `Codable` conformances of ``CurrencyCode``, ``PriceLocale`` and
/// ``SubscriptionPeriod``.
enum TextCoding {
    /// Decodes a string and makes the value from it; a refused string is a decoding error that
    /// says why.
    static func decode<Value>(
        from decoder: any Decoder, _ make: (String) throws(StorePriceError) -> Value
    ) throws -> Value {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            return try make(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    static func encode(_ text: String, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
