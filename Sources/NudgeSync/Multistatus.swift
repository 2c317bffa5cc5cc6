import Foundation

/// A WebDAV `207 Multi-Status` answer (RFC 4918 §13), read: one entry per resource, with
/// the properties found and the status, and RFC 6578's new sync token.
public struct Multistatus: Sendable, Equatable {
    /// One `<response>`.
    public struct Response: Sendable, Equatable {
        /// The resource's absolute URL (its `<href>` resolved against the request's URL).
        public var url: String
        /// The response's own `<status>` (404 for a member removed, in sync-collection), if it has one.
        public var status: Int?
        /// The properties with a 2xx `<propstat>`.
        public var properties: [XMLNode]

        /// The first property `{namespace}name` found.
        public func property(_ namespace: String, _ name: String) -> XMLNode? {
            properties.first { $0.is(namespace, name) }
        }
    }

    public var responses: [Response]
    /// `<sync-token>` (RFC 6578), when the answer was to a sync-collection REPORT.
    public var syncToken: String?

    /// The most responses read from one answer: more is refused, never half taken.
    public static let maxResponses = 100_000

    /// Reads `root` (a `{DAV:}multistatus`), resolving hrefs against `base`.
    public static func read(_ root: XMLNode, base: String) throws(DAVError) -> Multistatus {
        guard root.is(Namespace.dav, "multistatus") else { throw .malformed("the answer is not a WebDAV multistatus") }
        let baseURL = URL(string: base)
        var responses: [Response] = []
        for node in root.all(Namespace.dav, "response") {
            guard responses.count < maxResponses else { throw .tooMany(maxResponses) }
            guard let href = node.child(Namespace.dav, "href")?.trimmed, !href.isEmpty else {
                throw .malformed("a response has no href")
            }
            guard let url = URL(string: href, relativeTo: baseURL)?.absoluteURL.absoluteString else {
                throw .malformed("an href is not a URL: \(href.prefix(80))")
            }
            var properties: [XMLNode] = []
            for propstat in node.all(Namespace.dav, "propstat") {
                guard let status = propstat.child(Namespace.dav, "status").flatMap({ statusCode($0.trimmed) }),
                      (200..<300).contains(status) else { continue }
                for prop in propstat.all(Namespace.dav, "prop") { properties += prop.children }
            }
            let status = node.child(Namespace.dav, "status").flatMap { statusCode($0.trimmed) }
            responses.append(Response(url: CalDAVRequest.canonical(url), status: status, properties: properties))
        }
        let token = root.child(Namespace.dav, "sync-token")?.trimmed
        return Multistatus(responses: responses, syncToken: token.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// `HTTP/1.1 404 Not Found` → 404.
    static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/") else { return nil }
        return Int(parts[1])
    }
}

/// What a WebDAV server's answer meant, when it was not what was asked for.
public enum DAVError: Error, Sendable, Equatable {
    /// The answer could not be read as what it should be: why.
    case malformed(String)
    /// More entries than the limit.
    case tooMany(Int)
    /// A status the step did not expect: the status, the URL, and the server's
    /// precondition element (`valid-sync-token`, …) if it named one.
    case status(Int, url: String, condition: String?)

    /// The precondition or postcondition a DAV `<error>` body names (RFC 4918 §16), e.g.
    /// `valid-sync-token`.
    public static func condition(in root: XMLNode?) -> String? {
        guard let root, root.is(Namespace.dav, "error") else { return nil }
        return root.children.first?.name
    }
}

extension DAVError: CustomStringConvertible {
    /// In English, for logs and `sync status`.
    public var description: String {
        switch self {
        case .malformed(let why): "the server's answer cannot be read: \(why)"
        case .tooMany(let limit): "the server's answer lists more than \(limit) entries"
        case .status(let status, let url, let condition):
            // A 200 where a multistatus (207) was asked for: a page, a proxy's, not a CalDAV answer.
            "the server answered \(status)" + (HTTPStatus.reason(status).isEmpty ? "" : " " + HTTPStatus.reason(status)) + " for \(url)"
                + (condition.map { " (\($0))" } ?? "") + ((200..<300).contains(status) ? ", not a WebDAV multistatus: is it a CalDAV address?" : "")
        }
    }
}

/// Reason phrases for the statuses a CalDAV server sends.
public enum HTTPStatus {
    public static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 412: "Precondition Failed"
        case 413: "Payload Too Large"
        case 415: "Unsupported Media Type"
        case 423: "Locked"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 507: "Insufficient Storage"
        default: ""
        }
    }
}
