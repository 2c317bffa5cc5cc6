import Foundation

/// The requests a CalDAV client sends (RFC 4791, 4918, 6578, 6764), as values.
public enum CalDAVRequest {
    static let xml = HTTPRequest.Header("Content-Type", "application/xml; charset=utf-8")

    static func body(_ text: String) -> [UInt8] { Array(#"<?xml version="1.0" encoding="utf-8"?>"#.utf8) + Array(text.utf8) }

    /// PROPFIND Depth 0 for who the user is and where the calendars live (RFC 5397, 4791 §6.2.1).
    public static func principal(_ url: String) -> HTTPRequest {
        HTTPRequest("PROPFIND", url, headers: [xml, .init("Depth", "0")], body: body("""
        <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop>\
        <d:current-user-principal/><d:resourcetype/><c:calendar-home-set/></d:prop></d:propfind>
        """))
    }

    /// PROPFIND Depth 0 for a principal's calendar home.
    public static func home(_ principal: String) -> HTTPRequest {
        HTTPRequest("PROPFIND", principal, headers: [xml, .init("Depth", "0")], body: body("""
        <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><c:calendar-home-set/></d:prop></d:propfind>
        """))
    }

    /// PROPFIND Depth 1 for the calendars in a home, with what each holds.
    public static func calendars(_ home: String) -> HTTPRequest {
        HTTPRequest("PROPFIND", home, headers: [xml, .init("Depth", "1")], body: body("""
        <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" \
        xmlns:i="http://apple.com/ns/ical/"><d:prop><d:resourcetype/><d:displayname/><c:supported-calendar-component-set/>\
        <cs:getctag/><d:sync-token/><i:calendar-color/><d:current-user-privilege-set/></d:prop></d:propfind>
        """))
    }

    /// REPORT sync-collection (RFC 6578): what changed since `token` (all, for none), ETags only.
    public static func syncCollection(_ calendar: String, token: String?) -> HTTPRequest {
        HTTPRequest("REPORT", calendar, headers: [xml, .init("Depth", "0")], body: body("""
        <d:sync-collection xmlns:d="DAV:"><d:sync-token>\(escape(token ?? ""))</d:sync-token>\
        <d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
        """))
    }

    /// PROPFIND Depth 1 for every member's ETag: the way to see changes on a server
    /// without sync-collection.
    public static func etags(_ calendar: String) -> HTTPRequest {
        HTTPRequest("PROPFIND", calendar, headers: [xml, .init("Depth", "1")], body: body("""
        <d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:resourcetype/></d:prop></d:propfind>
        """))
    }

    /// REPORT calendar-multiget (RFC 4791 §7.9): the data and ETags of `urls`.
    public static func multiget(_ calendar: String, urls: [String]) -> HTTPRequest {
        let hrefs = urls.map { "<d:href>\(escape(path(of: $0)))</d:href>" }.joined()
        return HTTPRequest("REPORT", calendar, headers: [xml, .init("Depth", "1")], body: body("""
        <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/>\
        <c:calendar-data/></d:prop>\(hrefs)</c:calendar-multiget>
        """))
    }

    /// PUT of an object: `If-None-Match: *` when it is new, `If-Match` with the ETag last
    /// seen when it is a change. Never unconditional.
    public static func put(_ url: String, text: [UInt8], etag: String?) -> HTTPRequest {
        HTTPRequest("PUT", url, headers: [
            .init("Content-Type", "text/calendar; charset=utf-8"), etag.map { .init("If-Match", $0) } ?? .init("If-None-Match", "*"),
        ], body: text)
    }

    /// DELETE of an object, only if it is still the one last seen.
    public static func delete(_ url: String, etag: String) -> HTTPRequest {
        HTTPRequest("DELETE", url, headers: [.init("If-Match", etag)])
    }

    /// GET of one object.
    public static func get(_ url: String) -> HTTPRequest { HTTPRequest("GET", url) }

    /// One spelling of a URL, so that an object is one key whatever the server's hrefs look
    /// like: the path's percent-escapes decoded, then only what a path may not hold encoded
    /// (`%40nudge.ics` from one server and `@nudge.ics` from another are one object).
    public static func canonical(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let prefix = url[..<slash], path = String(rest[slash...])
        let decoded = path.removingPercentEncoding ?? path
        return prefix + (decoded.addingPercentEncoding(withAllowedCharacters: pathAllowed) ?? path)
    }

    /// RFC 3986's pchar and `/`: what a path holds as it is.
    static let pathAllowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/")

    /// The path (and query) of a URL, as an href is written.
    public static func path(of url: String) -> String {
        guard let scheme = url.range(of: "://"), let slash = url[scheme.upperBound...].firstIndex(of: "/") else { return url }
        return String(url[slash...])
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
