import Foundation
import PriceService

// 127.0.0.1, on the port in PORT (8080 by default).
let environment = ProcessInfo.processInfo.environment
guard let port = Int(environment["PORT"] ?? "8080"), (1...65535).contains(port) else {
    FileHandle.standardError.write(Data("PriceServer: PORT must be a port number, 1 to 65535; got '\(environment["PORT"] ?? "")'\n".utf8))
    exit(64)
}
try await PriceService.application(port: port).runService()
