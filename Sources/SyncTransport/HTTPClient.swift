import CCurl
import Foundation
import NudgeSync
import Platform

/// HTTP through libcurl, driven by an ``EventLoop`` through curl's multi-socket interface
/// (`curl_multi_socket_action`), the way systemd's importd drives curl from sd-event:
/// curl says which sockets to watch and when it wants a timeout, the loop polls them with
/// everything else, and each finished transfer calls its completion on the loop. Nothing
/// waits for a server anywhere else.
///
/// What comes from outside is held to ``Limits``: the body's size, the time without
/// progress, the redirects. http:// is refused except to a loopback address unless
/// ``Settings/allowsPlainHTTP``; a redirect never carries the credentials to another host
/// (curl's default, `CURLOPT_UNRESTRICTED_AUTH` off) and never downgrades https to http.
public final class HTTPClient {
    /// What the client accepts from servers.
    public struct Settings: Sendable {
        /// A PEM file of certificate authorities to trust instead of the system's.
        public var authorityFile: String?
        /// Plain http:// to hosts other than loopback (off: refused).
        public var allowsPlainHTTP = false
        /// The largest body read (bytes).
        public var maxBody = 32 << 20
        /// A transfer that moves nothing for this long fails (seconds).
        public var stallSeconds = 30
        /// Connecting longer than this fails (seconds).
        public var connectSeconds = 15

        public init(authorityFile: String? = nil, allowsPlainHTTP: Bool = false) {
            self.authorityFile = authorityFile
            self.allowsPlainHTTP = allowsPlainHTTP
        }
    }

    private let loop: EventLoop
    private let settings: Settings
    private let multi: UnsafeMutableRawPointer
    /// The sockets curl wants watched, and for what (`POLLIN`/`POLLOUT`).
    fileprivate var watched: [curl_socket_t: Int16] = [:]
    /// When curl wants `CURL_SOCKET_TIMEOUT` (monotonic seconds), if it does.
    fileprivate var deadline: Double?
    private var transfers: [ObjectIdentifier: Transfer] = [:]
    private var source: EventLoop.Source?
    /// Requests made, for the figures (`sync status --verbose`, the bench).
    public private(set) var requestCount = 0

    private static let initialized: Bool = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK }()

    public init(loop: EventLoop, settings: Settings = Settings()) {
        _ = Self.initialized
        self.loop = loop
        self.settings = settings
        multi = curl_multi_init()!
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = nudge_curl_multi_socket_callback(multi, { _, socket, what, context, _ in
            let client = Unmanaged<HTTPClient>.fromOpaque(context!).takeUnretainedValue()
            switch what {
            case Int32(CURL_POLL_REMOVE): client.watched[socket] = nil
            case Int32(CURL_POLL_IN): client.watched[socket] = Int16(POLLIN)
            case Int32(CURL_POLL_OUT): client.watched[socket] = Int16(POLLOUT)
            default: client.watched[socket] = Int16(POLLIN | POLLOUT)
            }
            return 0
        }, context)
        _ = nudge_curl_multi_timer_callback(multi, { _, milliseconds, context in
            let client = Unmanaged<HTTPClient>.fromOpaque(context!).takeUnretainedValue()
            client.deadline = milliseconds < 0 ? nil : monotonicSeconds() + Double(milliseconds) / 1000
            return 0
        }, context)
        source = loop.add(set: { [unowned self] in
            let descriptors = watched.map { pollfd(fd: $0.key, events: $0.value, revents: 0) }
            let timeout = deadline.map { Int32(clamping: Int64(max(0, (($0 - monotonicSeconds()) * 1000).rounded(.up)))) }
            return (descriptors, timeout)
        }, dispatch: { [unowned self] results in
            var running: Int32 = 0
            for result in results where result.revents != 0 {
                var mask: Int32 = 0
                if result.revents & Int16(POLLIN) != 0 { mask |= CURL_CSELECT_IN }
                if result.revents & Int16(POLLOUT) != 0 { mask |= CURL_CSELECT_OUT }
                if result.revents & Int16(POLLERR | POLLHUP) != 0 { mask |= CURL_CSELECT_ERR }
                curl_multi_socket_action(multi, result.fd, mask, &running)
            }
            if let deadline, monotonicSeconds() >= deadline {
                self.deadline = nil
                curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running)
            }
            finishDone()
        })
    }

    deinit {
        source?.remove()
        for transfer in transfers.values {
            curl_multi_remove_handle(multi, transfer.easy)
            transfer.close()
        }
        curl_multi_cleanup(multi)
    }

    /// Whether a transfer is still under way.
    public var isBusy: Bool { !transfers.isEmpty }

    /// Starts `request`; `done` is called on the loop with the response (any status) or
    /// why there is none. `credentials` are given to curl from memory, never put in a URL.
    public func send(_ request: HTTPRequest, credentials: Credentials? = nil,
                     _ done: @escaping (Result<HTTPResponse, HTTPFailure>) -> Void) {
        if let refusal = refusal(of: request.url) {
            loop.addTimer(at: 0) { done(.failure(refusal)) }
            return
        }
        guard let easy = curl_easy_init() else {
            loop.addTimer(at: 0) { done(.failure(.transfer(code: -1, message: "curl_easy_init failed"))) }
            return
        }
        let transfer = Transfer(easy: easy, request: request, limit: settings.maxBody, done: done)
        transfer.configure(settings: settings, credentials: credentials,
                           secureOnly: request.url.lowercased().hasPrefix("https:"))
        transfers[ObjectIdentifier(transfer)] = transfer
        requestCount += 1
        curl_multi_add_handle(multi, easy)
    }

    /// Stops every transfer under way; their completions are not called.
    public func cancelAll() {
        for transfer in transfers.values {
            curl_multi_remove_handle(multi, transfer.easy)
            transfer.close()
        }
        transfers = [:]
    }

    /// http:// to anything but loopback, unless allowed; a URL curl cannot read.
    private func refusal(of url: String) -> HTTPFailure? {
        let lower = url.lowercased()
        if lower.hasPrefix("https://") { return nil }
        guard lower.hasPrefix("http://") else { return .refused(url: url, reason: .scheme) }
        if settings.allowsPlainHTTP || HTTPRequest.isLoopback(url) { return nil }
        return .refused(url: url, reason: .plainHTTP)
    }

    private func finishDone() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            guard let transfer = transfers.first(where: { $0.value.easy == easy })?.value else { continue }
            transfers[ObjectIdentifier(transfer)] = nil
            curl_multi_remove_handle(multi, easy)
            let result = transfer.result(code: code)
            transfer.close()
            transfer.done(result)
        }
    }
}

/// One request under way: curl's handle, what came back so far, and who waits for it.
private final class Transfer {
    let easy: UnsafeMutableRawPointer
    let request: HTTPRequest
    let limit: Int
    let done: (Result<HTTPResponse, HTTPFailure>) -> Void
    var body: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    var tooLarge = false
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// The body, in memory curl may point at until the transfer ends.
    private let upload: UnsafeMutableRawBufferPointer

    init(easy: UnsafeMutableRawPointer, request: HTTPRequest, limit: Int, done: @escaping (Result<HTTPResponse, HTTPFailure>) -> Void) {
        self.easy = easy
        self.request = request
        self.limit = limit
        self.done = done
        upload = .allocate(byteCount: max(request.body.count, 1), alignment: 1)
        upload.copyBytes(from: request.body)
    }

    /// curl copies the strings it is given, but not the body (`CURLOPT_POSTFIELDS`): that
    /// lives in `upload` until `close()`.
    func configure(settings: HTTPClient.Settings, credentials: Credentials?, secureOnly: Bool) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        nudge_curl_setopt_string(easy, CURLOPT_URL, request.url)
        nudge_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        nudge_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        // A redirect from https never goes to http; from http (loopback), to either.
        nudge_curl_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, secureOnly ? "https" : "http,https")
        nudge_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        nudge_curl_setopt_long(easy, CURLOPT_MAXREDIRS, 5)
        // PROPFIND stays PROPFIND after a 301/302 (curl keeps a custom method; POST is not used).
        nudge_curl_setopt_long(easy, CURLOPT_UNRESTRICTED_AUTH, 0)
        nudge_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT, settings.connectSeconds)
        nudge_curl_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1)
        nudge_curl_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, settings.stallSeconds)
        nudge_curl_setopt_size(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))
        nudge_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1)
        nudge_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2)
        if let file = settings.authorityFile { nudge_curl_setopt_string(easy, CURLOPT_CAINFO, file) }
        nudge_curl_setopt_string(easy, CURLOPT_USERAGENT, "Nudge/1 (CalDAV; +https://github.com/nudge/nudge)")
        nudge_curl_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, "")
        if let credentials {
            nudge_curl_setopt_long(easy, CURLOPT_HTTPAUTH, Int(nudge_curl_auth_basic))
            nudge_curl_setopt_string(easy, CURLOPT_USERNAME, credentials.user)
            nudge_curl_setopt_string(easy, CURLOPT_PASSWORD, credentials.password)
        }
        switch request.method {
        case "GET": break
        case "HEAD": nudge_curl_setopt_long(easy, CURLOPT_NOBODY, 1)
        default: nudge_curl_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method)
        }
        if !request.body.isEmpty || ["PUT", "PROPFIND", "REPORT"].contains(request.method) {
            nudge_curl_setopt_size(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count))
            nudge_curl_setopt_pointer(easy, CURLOPT_POSTFIELDS, upload.baseAddress)
        }
        // curl adds "Expect: 100-continue" to large bodies: one more round trip for nothing.
        for (name, value) in request.headerPairs + [("Expect", "")] {
            headerList = curl_slist_append(headerList, value.isEmpty ? name + ":" : name + ": " + value)
        }
        nudge_curl_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList)
        nudge_curl_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            guard transfer.body.count + length <= transfer.limit else {
                transfer.tooLarge = true
                return 0
            }
            data.map { transfer.body.append(contentsOf: UnsafeRawBufferPointer(start: $0, count: length)) }
            return length
        }
        nudge_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        nudge_curl_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            guard let data else { return length }
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
            if line.hasPrefix("HTTP/") {
                // A new response (after a redirect or a 100): only the last one's headers count.
                transfer.headers = []
            } else if let colon = line.firstIndex(of: ":"), transfer.headers.count < 200 {
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
                transfer.headers.append((name, value))
            }
            return length
        }
        nudge_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
    }

    func result(code: CURLcode) -> Result<HTTPResponse, HTTPFailure> {
        if tooLarge || code == CURLE_FILESIZE_EXCEEDED { return .failure(.tooLarge(limit: limit)) }
        guard code == CURLE_OK else {
            let message = String(cString: curl_easy_strerror(code))
            switch code {
            case CURLE_OPERATION_TIMEDOUT: return .failure(.stalled)
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
                return .failure(.unreachable(message: message))
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM:
                return .failure(.certificate(message: message))
            case CURLE_TOO_MANY_REDIRECTS: return .failure(.refused(url: request.url, reason: .redirects))
            case CURLE_UNSUPPORTED_PROTOCOL: return .failure(.refused(url: request.url, reason: .plainHTTP))
            default: return .failure(.transfer(code: Int(code.rawValue), message: message))
            }
        }
        var status = 0
        nudge_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafeMutablePointer<CChar>?
        nudge_curl_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
        return .success(HTTPResponse(status: status, headers: headers, body: body,
                                     url: effective.map { String(cString: $0) } ?? request.url))
    }

    func close() {
        curl_easy_cleanup(easy)
        upload.deallocate()
        curl_slist_free_all(headerList)
        headerList = nil
    }
}
