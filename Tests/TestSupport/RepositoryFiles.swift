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
