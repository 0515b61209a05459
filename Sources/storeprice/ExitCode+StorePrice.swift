import ArgumentParser

extension ExitCode {
    /// Bad input data: an amount, locale, currency or line that cannot be used (EX_DATAERR).
    static let dataError = ExitCode(65)
}
