import CJansson

extension json_error_t {
    /// Jansson's message for a failed parse: a 400's detail, a data file's line.
    public var message: String {
        var error = self
        return withUnsafeBytes(of: &error.text) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
    }

    /// What kind of failure it was (`json_error_code`, Jansson 2.14): a premature end of the
    /// input, a syntax error, too deep a nesting, ...
    public var code: json_error_code {
        var error = self
        return json_error_code(&error)
    }
}
