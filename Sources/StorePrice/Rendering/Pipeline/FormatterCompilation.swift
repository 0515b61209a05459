/// Has ICU build each of a bulk run's formatters once, on the first worker that needs it, one
/// formatter at a time, whatever the number of workers.
///
/// ICU formats a new formatter's first two numbers from scratch and builds its data on the third,
/// loading locale data under one lock for the whole process (see `PriceFormatter.compile()`).
/// Workers rendering the same catalog meet new formatters at the same moment; left to ICU, they
/// take that lock in turn thousands of times and sleep on it. Here a worker builds a formatter
/// while holding one lock of its own, so ICU's locale data is only ever loaded on one thread at a
/// time, a worker that has to wait waits once per formatter, and only the formatters the catalog
/// uses are built. Each worker asks once per formatter (`ChunkRenderer` remembers the answer).
/// The lock is a plain pthread mutex (`Locked`), so a worker that waits sleeps rather than spins.
final class FormatterCompilation: Sendable {
    private let formatters: [PriceFormatter]
    /// Whether each formatter is built.
    private let built: Locked<[Bool]>

    init(_ formatters: [PriceFormatter]) {
        self.formatters = formatters
        built = Locked(Array(repeating: false, count: formatters.count))
    }

    /// Returns once formatter `index` is built: at once if it is, or after building it on this
    /// thread, waiting first for any other worker building one.
    func prepare(_ index: Int) {
        built.withLock { built in
            if built[index] { return }
            formatters[index].compile()
            built[index] = true
        }
    }
}
