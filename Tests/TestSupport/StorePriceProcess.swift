public import Foundation

/// What a run of the built `storeprice` executable printed, and how it exited.
public struct ProcessOutput: Sendable {
    public var status: Int32
    public var standardOutput: Data
    public var standardError: Data

    /// Standard output as UTF-8 text.
    public var output: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error as UTF-8 text.
    public var error: String { String(decoding: standardError, as: UTF8.self) }
}

/// Runs the `storeprice` executable built next to the test bundle.
///
/// - Parameters:
///   - arguments: the command-line arguments.
///   - input: bytes for standard input; empty by default.
///   - environment: the environment; by default this process's.
public func runStorePrice(
    _ arguments: [String],
    input: Data = Data(),
    environment: [String: String]? = nil
) throws -> ProcessOutput {
    try runProcess(try storePriceExecutable().path, arguments, input: input, environment: environment)
}

/// Runs any program with `arguments`, feeding it `input`, and waits for it.
public func runProcess(
    _ executable: String, _ arguments: [String], input: Data = Data(), environment: [String: String]? = nil
) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()

    // Read both pipes while writing, so that large outputs never block the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var out = Data()
    nonisolated(unsafe) var err = Data()
    DispatchQueue.global().async(group: group) { out = stdout.fileHandleForReading.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { err = stderr.fileHandleForReading.readDataToEndOfFile() }
    try stdin.fileHandleForWriting.write(contentsOf: input)
    try stdin.fileHandleForWriting.close()
    group.wait()
    process.waitUntilExit()
    return ProcessOutput(status: process.terminationStatus, standardOutput: out, standardError: err)
}

struct ExecutableNotFound: Error, CustomStringConvertible {
    var searched: [String]
    var description: String { "the storeprice executable was not found in \(searched); run 'swift build' first" }
}

/// The built `storeprice`: in the build folder that holds this test binary.
public func storePriceExecutable() throws -> URL {
    var searched: [String] = []
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent()
    for _ in 0..<5 {
        let candidate = directory.appendingPathComponent("storeprice")
        searched.append(directory.path)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    throw ExecutableNotFound(searched: searched)
}
