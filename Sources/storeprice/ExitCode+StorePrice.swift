import ArgumentParser

extension ExitCode {
    /// Bad input data: an amount, locale, currency or line that cannot be used (EX_DATAERR).
    static let dataError = ExitCode(65)
    /// An output file that cannot be written (EX_CANTCREAT).
    static let cannotCreateOutput = ExitCode(73)
}
