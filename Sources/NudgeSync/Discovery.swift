import Foundation

/// A calendar collection on a server, as discovery found it.
public struct RemoteCalendar: Sendable, Equatable {
    /// The collection's absolute URL (ends in `/`).
    public var url: String
    /// `displayname`, or the last part of the URL.
    public var name: String
    /// What it may hold: `VEVENT`, `VTODO` (all of them where the server does not say).
    public var components: [String]
    /// `calendar-color` (`#RRGGBB…`), if set.
    public var color: String?
    /// Whether the user may write to it (`current-user-privilege-set` has `write` or
    /// `write-content`, or the server did not say).
    public var writable: Bool

    public init(url: String, name: String, components: [String], color: String? = nil, writable: Bool = true) {
        self.url = url
        self.name = name
        self.components = components
        self.color = color
        self.writable = writable
    }
}

/// What discovery found for an account.
public struct DiscoveredAccount: Sendable, Equatable {
    /// The address that answered (after `/.well-known/caldav` and redirects).
    public var principal: String
    public var home: String
    public var calendars: [RemoteCalendar]

    public init(principal: String, home: String, calendars: [RemoteCalendar]) {
        self.principal = principal
        self.home = home
        self.calendars = calendars
    }
}

/// Why a sync step failed, for the person.
public enum SyncFailure: Error, Sendable, Equatable {
    case http(HTTPFailure)
    case dav(DAVError)
    /// 401: the user name or password was refused.
    case unauthorized(url: String)
    /// Nothing at the address speaks CalDAV; `why`: what the last answer was, when it said something.
    case notCalDAV(url: String, why: String? = nil)
}

extension SyncFailure: CustomStringConvertible {
    public var description: String {
        switch self {
        case .http(let failure): failure.description
        case .dav(let error): error.description
        case .unauthorized(let url): "the server refused the user name or password (401) at \(url)"
        case .notCalDAV(let url, let why): "no CalDAV service was found at \(url) (nor at its /.well-known/caldav)" + (why.map { ": " + $0 } ?? "")
        }
    }
}

/// Turns the body of an XML answer into a tree; the transport's reader (libxml2).
public typealias XMLReading = @Sendable ([UInt8]) throws(DAVError) -> XMLNode

/// How a client finds the calendars from an address, as RFC 6764 and RFC 4791 say: the
/// address itself, else its `/.well-known/caldav`, asked for `current-user-principal`;
/// the principal for `calendar-home-set`; the home, Depth 1, for its calendars. A step
/// machine: it says which request to send and takes the answer, so it runs on any loop
/// and is tested with plain values.
public struct Discovery: Sendable {
    public enum Next: Sendable, Equatable {
        case send(HTTPRequest)
        case found(DiscoveredAccount)
        case failed(SyncFailure)
    }

    enum Stage: Sendable {
        case principal(url: String, wellKnown: Bool)
        case home(principal: String)
        case calendars(principal: String, home: String)
    }

    let address: String
    let read: XMLReading
    var stage: Stage
    /// What was wrong with the last answer, for the failure's words.
    var problem: String?

    public init(address: String, read: @escaping XMLReading) {
        self.address = address
        self.read = read
        stage = .principal(url: address, wellKnown: false)
    }

    /// The first request.
    public var first: HTTPRequest { CalDAVRequest.principal(address) }

    /// Takes the answer to the last request; says what comes next.
    public mutating func take(_ result: Result<HTTPResponse, HTTPFailure>) -> Next {
        let response: HTTPResponse
        switch result {
        case .failure(let failure): return .failed(.http(failure))
        case .success(let answer): response = answer
        }
        if response.status == 401 { return .failed(.unauthorized(url: response.url)) }
        switch stage {
        case .principal(let url, let wellKnown):
            let found = multistatus(response).flatMap { status -> (principal: String?, home: String?)? in
                guard let first = status.responses.first else { return nil }
                let principal = first.property(Namespace.dav, "current-user-principal")?.child(Namespace.dav, "href")
                    .flatMap { resolve($0.trimmed, against: first.url) }
                let home = first.property(Namespace.caldav, "calendar-home-set")?.child(Namespace.dav, "href")
                    .flatMap { resolve($0.trimmed, against: first.url) }
                return (principal, home)
            }
            if let home = found?.home {
                stage = .calendars(principal: found?.principal ?? response.url, home: home)
                return .send(CalDAVRequest.calendars(home))
            }
            if let principal = found?.principal {
                stage = .home(principal: principal)
                return .send(CalDAVRequest.home(principal))
            }
            guard !wellKnown, let wellKnownURL = resolve("/.well-known/caldav", against: url) else {
                return .failed(.notCalDAV(url: address, why: problem))
            }
            stage = .principal(url: wellKnownURL, wellKnown: true)
            return .send(CalDAVRequest.principal(wellKnownURL))
        case .home(let principal):
            guard let status = multistatus(response), let first = status.responses.first,
                  let href = first.property(Namespace.caldav, "calendar-home-set")?.child(Namespace.dav, "href"),
                  let home = resolve(href.trimmed, against: first.url) else {
                return .failed(.notCalDAV(url: address, why: problem))
            }
            stage = .calendars(principal: principal, home: home)
            return .send(CalDAVRequest.calendars(home))
        case .calendars(let principal, let home):
            guard response.status == 207 else {
                return .failed(.dav(.status(response.status, url: response.url, condition: nil)))
            }
            do throws(DAVError) {
                let status = try Multistatus.read(try read(response.body), base: response.url)
                return .found(DiscoveredAccount(principal: principal, home: home, calendars: status.responses.compactMap(calendar)))
            } catch {
                return .failed(.dav(error))
            }
        }
    }

    private mutating func multistatus(_ response: HTTPResponse) -> Multistatus? {
        guard response.status == 207 else {
            problem = "the server answered \(response.status) \(HTTPStatus.reason(response.status))".trimmingCharacters(in: .whitespaces)
            return nil
        }
        do throws(DAVError) {
            return try Multistatus.read(try read(response.body), base: response.url)
        } catch {
            problem = error.description
            return nil
        }
    }

    /// A calendar collection of a Depth 1 answer; `nil` for the home itself and anything
    /// that is not a calendar.
    func calendar(_ response: Multistatus.Response) -> RemoteCalendar? {
        guard response.property(Namespace.dav, "resourcetype")?.child(Namespace.caldav, "calendar") != nil else { return nil }
        var components = response.property(Namespace.caldav, "supported-calendar-component-set")?
            .all(Namespace.caldav, "comp").compactMap { $0.attributeName } ?? []
        if components.isEmpty { components = ["VEVENT", "VTODO"] }
        let privileges = response.property(Namespace.dav, "current-user-privilege-set")?.all(Namespace.dav, "privilege")
            .flatMap(\.children).map(\.name)
        let writable = privileges.map { $0.contains("write") || $0.contains("write-content") || $0.contains("all") } ?? true
        let name = response.property(Namespace.dav, "displayname")?.trimmed
        let last = response.url.split(separator: "/").last.map(String.init) ?? response.url
        return RemoteCalendar(url: response.url.hasSuffix("/") ? response.url : response.url + "/",
                              name: name.flatMap { $0.isEmpty ? nil : $0 } ?? (last.removingPercentEncoding ?? last),
                              components: components,
                              color: response.property(Namespace.ical, "calendar-color")?.trimmed,
                              writable: writable)
    }
}

/// `href` resolved against `base`, as an absolute URL string.
func resolve(_ href: String, against base: String) -> String? {
    guard !href.isEmpty, let url = URL(string: href, relativeTo: URL(string: base)) else { return nil }
    return CalDAVRequest.canonical(url.absoluteURL.absoluteString)
}

extension XMLNode {
    /// The `name` attribute (of a `<C:comp name="VEVENT"/>`).
    var attributeName: String? { attributes["name"] }
}
