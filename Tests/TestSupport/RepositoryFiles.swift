public import Foundation

/// A file of this repository, by its path from the repository's root (`Data/storefronts.json`).
public func repositoryFile(_ path: String) -> URL {
    // This file is Tests/TestSupport/RepositoryFiles.swift.
    URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent(path)
        .standardizedFileURL
}

/// A new, empty directory under the system's temporary directory, with a short name: error
/// messages show a path of up to 64 characters whole, and tests compare them byte for byte.
public func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sp-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The golden snapshot of the sample catalog for the built-in accounts.
public let sampleGolden = repositoryFile("Data/golden/catalog-sample.built-in.jsonl")

/// A copy of the sample golden snapshot in a new temporary directory, with `edit` applied to each
/// line (the header is line 1), beside a copy of the sample catalog its header names.
public func editedSampleGolden(_ edit: (String) -> String?) throws -> URL {
    let text = try String(contentsOf: sampleGolden, encoding: .utf8)
    var lines: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        if let edited = edit(line) { lines.append(edited) }
    }
    let directory = try temporaryDirectory()
    let copy = directory.appendingPathComponent("golden.jsonl")
    try FileManager.default.copyItem(
        at: repositoryFile("Data/catalog-sample.jsonl"), to: directory.appendingPathComponent("catalog-sample.jsonl"))
    try lines.joined(separator: "\n")
        .replacingOccurrences(of: #""catalog":"../catalog-sample.jsonl""#, with: #""catalog":"catalog-sample.jsonl""#)
        .write(to: copy, atomically: true, encoding: .utf8)
    return copy
}

/// `edit` for ``editedSampleGolden(_:)`` that shows Japan's level 1 price with U+00A5 instead
/// of ICU's U+FFE5, as a different CLDR would.
public func yenSignEdit(_ line: String) -> String? {
    guard line.hasPrefix(#"{"product":"com.example.level1","account":"jpn","#) else { return line }
    return line.replacingOccurrences(of: #""formatted":"￥160","escaped":"\\u{FFE5}160""#,
                                     with: #""formatted":"¥160","escaped":"\\u{00A5}160""#)
}

/// `edit` for ``editedSampleGolden(_:)`` that makes the golden what format 1 wrote: the header's
/// version 1 and no `strings` on any row.
public func formatOneEdit(_ line: String) -> String? {
    if line.hasPrefix(#"{"storeprice_snapshot":2,"#) {
        return line.replacingOccurrences(of: #""storeprice_snapshot":2"#, with: #""storeprice_snapshot":1"#)
    }
    guard let range = line.range(of: #","strings":["#) else { return line }
    return String(line[..<range.lowerBound]) + "}"
}

/// A plain path as error messages show it: whole, as typed, up to 1,024 bytes (the tests' paths
/// are shorter). For tests about a message's wording; the rule itself is tested with literal paths.
public func shownInMessage(path: String) -> String {
    precondition(path.utf8.count <= 1024, "a test path longer than messages show whole")
    return path
}
