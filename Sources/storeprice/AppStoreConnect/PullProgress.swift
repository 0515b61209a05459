import Foundation
import Synchronization

/// How far a pull has come, on standard error: on a terminal one line, redrawn at most ten times
/// a second (`products 120 of 350, 480 requests, 12 s`); otherwise, as in a CI log, a line at a
/// quarter, a half and three quarters of the products, and none with `--quiet`.
final class PullProgress: Sendable {
    enum Mode: Sendable {
        case redrawn, lines, quiet
    }

    let mode: Mode
    private let state = Mutex(State())

    private struct State {
        var products = 0
        var done = 0
        var requests = 0
        var started = ContinuousClock.now
        var lastDrawn: ContinuousClock.Instant?
        var quartersSaid = 0
        var drawn = false
    }

    /// The command a line of progress names, `asc pull` or `play pull`.
    let command: String

    init(mode: Mode, command: String = "asc pull") {
        self.mode = mode
        self.command = command
    }

    /// The mode standard error calls for: redrawn on a terminal, lines elsewhere.
    static func mode(quiet: Bool) -> Mode {
        quiet ? .quiet : isatty(Console.standardError) == 1 ? .redrawn : .lines
    }

    /// The products are known: the lists are read.
    func listed(products: Int) {
        state.withLock { $0.products = products }
        show()
    }

    func request() {
        state.withLock { $0.requests += 1 }
        show()
    }

    func productDone() {
        state.withLock { $0.done += 1 }
        show()
    }

    /// Clears the redrawn line, before the run's last words.
    func finish() {
        let drawn = state.withLock { $0.drawn }
        if mode == .redrawn, drawn { Console.toStandardError("\r\u{1B}[K") }
    }

    /// The seconds since the start.
    var elapsed: Double {
        let (seconds, attoseconds) = state.withLock { ContinuousClock.now - $0.started }.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    private func show() {
        let now = ContinuousClock.now
        let line: String? = state.withLock { state in
            let words = (state.products > 0 ? "products \(state.done) of \(state.products), " : "reading the lists, ")
                + "\(state.requests) request\(state.requests == 1 ? "" : "s"), \(Int((now - state.started) / .seconds(1))) s"
            switch mode {
            case .quiet:
                return nil
            case .redrawn:
                if let last = state.lastDrawn, now - last < .milliseconds(100) { return nil }
                state.lastDrawn = now
                state.drawn = true
                return "\r" + words + "\u{1B}[K"
            case .lines:
                guard state.products >= 8 else { return nil }
                let quarters = state.done * 4 / state.products
                guard quarters > state.quartersSaid, quarters < 4 else { return nil }
                state.quartersSaid = quarters
                return "\(command): " + words + "\n"
            }
        }
        if let line { Console.toStandardError(line) }
    }
}
