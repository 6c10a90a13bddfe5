import Foundation

/// Reads flags and `PULLDOWN_*` environment variables into a `Configuration`; a flag wins
/// over its variable. Each option is declared once, in `options`, which also writes `--help`.
public enum ConfigurationParser {
    /// Parses `arguments` (without the program name) over `environment`.
    public static func parse(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> Configuration {
        var config = Configuration()
        for option in options where !option.variable.isEmpty {
            if let value = environment[option.variable] {
                do {
                    try option.apply(&config, value)
                } catch {
                    throw UsageError(description: "\(option.variable): \(error.description)")
                }
            }
        }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let flag = String(parts[0])
            guard let option = options.first(where: { $0.flag == flag }) else {
                if flag == "-h" { config.showHelp = true; continue }
                throw UsageError(description: "unknown option \(argument) (see --help)")
            }
            guard let valueName = option.valueName else {
                try option.apply(&config, parts.count > 1 ? String(parts[1]) : "true")
                continue
            }
            if parts.count > 1 {
                try option.apply(&config, String(parts[1]))
            } else {
                guard index < arguments.count else {
                    throw UsageError(description: "\(flag) needs a value: \(flag) \(valueName)")
                }
                try option.apply(&config, arguments[index])
                index += 1
            }
        }
        if config.watchData && config.dataFile == nil { throw UsageError(description: "--watch needs --data FILE") }
        if config.dataCollection != nil && config.dataFile == nil {
            throw UsageError(description: "--collection needs --data FILE")
        }
        if let httpsPort = config.httpsPort, httpsPort != 0, httpsPort == config.server.port {
            throw UsageError(description: "--https-port must differ from --port (\(httpsPort)); for HTTPS on one port, --https alone")
        }
        return config
    }

    /// The text of `--help`.
    public static var helpText: String {
        var lines = [
            "Usage: pulldown [options]",
            "",
            "A pull-to-refresh and infinite-scroll demo backend: serves the page in --public",
            "and a JSON API under /api/. Every option can also be set with the variable",
            "shown; the option wins.",
            "",
        ]
        let names = options.map { option in option.valueName.map { "\(option.flag) \($0)" } ?? option.flag }
        let width = (names.map(\.count).max() ?? 0) + 2
        for (option, name) in zip(options, names) {
            let variable = option.variable.isEmpty ? "" : "  [\(option.variable)]"
            lines.append("  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + option.help + variable)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func integer(_ text: String, flag: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(description: "\(flag) needs a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return value
    }

    static func number(_ text: String, flag: String, in range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError(description: "\(flag) needs a number from \(format(range.lowerBound)) to \(format(range.upperBound)), not \"\(text)\"")
        }
        return value
    }

    static func boolean(_ text: String, flag: String) throws(UsageError) -> Bool {
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off", "": return false
        default: throw UsageError(description: "\(flag) takes no value, or true/false, not \"\(text)\"")
        }
    }

    static func format(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) : String(number)
    }
}
