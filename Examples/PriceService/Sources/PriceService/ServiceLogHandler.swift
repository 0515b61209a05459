import Foundation
import Logging

/// Log lines on standard error, one a line: text for people, or one JSON object a line for log
/// pipelines (`LOG_FORMAT=json`).
///
/// ```
/// 2026-12-07T16:00:00.123Z info request method=GET path=/v1/price status=200 duration_ms=0.412
/// {"time":"2026-12-07T16:00:00.123Z","level":"info","label":"PriceService","message":"request","method":"GET",…}
/// ```
///
/// Metadata values are written as they are given; in JSON a number given as a number stays one.
public struct ServiceLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    let label: String
    let format: ServiceConfiguration.LogFormat
    private let stream: @Sendable (String) -> Void

    public init(label: String, level: Logger.Level, format: ServiceConfiguration.LogFormat) {
        self.init(label: label, level: level, format: format) { line in
            // One write a line, so that lines of requests at once never interleave.
            var line = line
            line.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
        }
    }

    /// `2026-12-07T16:00:00.123Z`: UTC, to the millisecond.
    static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// A handler that hands each line, with its line break, to `stream`.
    public init(label: String, level: Logger.Level, format: ServiceConfiguration.LogFormat, stream: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.logLevel = level
        self.format = format
        self.stream = stream
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let given = event.metadata { all.merge(given) { $1 } }
        let time = Self.timeFormat.format(Date())
        switch format {
        case .text:
            var line = "\(time) \(event.level) \(event.message)"
            for key in all.keys.sorted() {
                line += " \(key)=\(Self.text(all[key] ?? ""))"
            }
            stream(line + "\n")
        case .json:
            var fields: [(String, String)] = [
                ("time", Self.json(time)), ("level", Self.json("\(event.level)")), ("label", Self.json(label)),
                ("message", Self.json("\(event.message)")),
            ]
            for key in all.keys.sorted() where !["time", "level", "label", "message"].contains(key) {
                fields.append((key, Self.json(all[key] ?? "")))
            }
            stream("{" + fields.map { "\(Self.json($0.0)):\($0.1)" }.joined(separator: ",") + "}\n")
        }
    }

    /// A metadata value in a text line: as it is when it has no space, quote or control
    /// character, quoted and escaped as JSON otherwise.
    static func text(_ value: Logger.Metadata.Value) -> String {
        let text = "\(value)"
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "\"" && $0 != "\\" && $0.value != 0x7F }
        return plain ? text : json(text)
    }

    /// A metadata value as JSON: a number given as one stays a number; text is a string.
    static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .stringConvertible(let number as any BinaryInteger): return "\(number)"
        case .string(let text): return json(text)
        case .stringConvertible(let other): return json(other.description)
        case .array(let values): return "[" + values.map(json).joined(separator: ",") + "]"
        case .dictionary(let values):
            return "{" + values.keys.sorted().map { "\(json($0)):\(json(values[$0] ?? ""))" }.joined(separator: ",") + "}"
        }
    }

    /// Text as a JSON string.
    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value):
                out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
