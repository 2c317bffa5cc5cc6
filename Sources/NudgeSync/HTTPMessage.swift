import Foundation

/// One HTTP request as a value: what the sync core asks for, and what a transport sends.
public struct HTTPRequest: Sendable, Equatable {
    /// `PROPFIND`, `REPORT`, `GET`, `PUT`, `DELETE`.
    public var method: String
    /// The absolute URL.
    public var url: String
    /// Headers, in order (`Depth`, `Content-Type`, `If-Match`, …).
    public var headers: [Header]
    /// The body (XML or iCalendar), empty for none.
    public var body: [UInt8]

    /// A header's name and value.
    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(_ method: String, _ url: String, headers: [Header] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The headers as pairs, for a transport.
    public var headerPairs: [(String, String)] { headers.map { ($0.name, $0.value) } }

    /// Whether `url`'s host is a loopback address (127.0.0.0/8, ::1, localhost): the only
    /// place plain http:// goes unless the person asks.
    public static func isLoopback(_ url: String) -> Bool {
        guard let host = URLComponents(string: url)?.host?.lowercased() else { return false }
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}

/// One HTTP response as a value.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code (207 for a multistatus).
    public var status: Int
    /// The headers of the last response (after redirects), names in lower case.
    public var headers: [Header]
    /// The body as it came.
    public var body: [UInt8]
    /// The URL that answered (after redirects).
    public var url: String

    /// A header's name (lower case) and value.
    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], url: String) {
        self.status = status
        self.headers = headers.map { Header(name: $0.name.lowercased(), value: $0.value) }
        self.body = body
        self.url = url
    }

    /// The first header named `name` (any case).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }

    /// 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The `ETag` header, as sent (quotes kept: it is given back verbatim in `If-Match`).
    public var etag: String? { header("etag") }

    /// `Retry-After` as seconds from now, given `now` for the HTTP-date form.
    public func retryAfter(now: Date) -> TimeInterval? {
        guard let value = header("retry-after")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value) { return TimeInterval(max(0, seconds)) }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return format.date(from: value).map { max(0, $0.timeIntervalSince(now)) }
    }
}

/// Why a request got no response.
public enum HTTPFailure: Error, Sendable, Equatable {
    /// Refused before sending: `reason` says why.
    case refused(url: String, reason: Refusal)
    /// Nothing answered (connection refused, no such host): curl's words.
    case unreachable(message: String)
    /// The server's certificate was not trusted, or TLS failed: curl's words.
    case certificate(message: String)
    /// Nothing moved for the stall time, or connecting took too long.
    case stalled
    /// The body was longer than the limit (bytes).
    case tooLarge(limit: Int)
    /// Any other transfer failure: curl's code and words (a cut connection, …).
    case transfer(code: Int, message: String)

    /// Why a URL is refused before sending.
    public enum Refusal: Sendable, Equatable {
        /// Plain http:// to a host other than loopback.
        case plainHTTP
        /// Not http:// or https://.
        case scheme
        /// More than five redirects.
        case redirects
    }
}

extension HTTPFailure: CustomStringConvertible {
    /// In English, for logs and `sync status`.
    public var description: String {
        switch self {
        case .refused(let url, .plainHTTP): "refused to send a password over plain http:// to \(url) (use https://, or --insecure-http)"
        case .refused(let url, .scheme): "not an http:// or https:// address: \(url)"
        case .refused(let url, .redirects): "too many redirects from \(url)"
        case .unreachable(let message): "the server cannot be reached: \(message)"
        case .certificate(let message): "the server's certificate is not trusted: \(message)"
        case .stalled: "the server stopped answering"
        case .tooLarge(let limit): "the server's answer is larger than \(limit / (1 << 20)) MB"
        case .transfer(_, let message): "the transfer failed: \(message)"
        }
    }
}

/// A user name and password, in memory only.
public struct Credentials: Sendable, Equatable {
    public var user: String
    public var password: String
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}
