import CJansson

extension json_error_t {
    /// Jansson's message for a failed parse: a 400's detail, a data file's line.
    public var message: String {
        var error = self
        return withUnsafeBytes(of: &error.text) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
    }
}
