import ArgumentParser

extension ExitCode {
    /// Bad input data: an amount, locale, currency or line that cannot be used (EX_DATAERR).
    static let dataError = ExitCode(65)
    /// A service that refused or could not be reached: App Store Connect (EX_UNAVAILABLE).
    static let serviceUnavailable = ExitCode(69)
    /// An output file that cannot be written (EX_CANTCREAT).
    static let cannotCreateOutput = ExitCode(73)
    /// Standard output that cannot be written, such as a full disk (EX_IOERR).
    static let outputError = ExitCode(74)
    /// Standard output's reader has gone: the status SIGPIPE would have given (128 + 13).
    static let closedPipe = ExitCode(141)
}
