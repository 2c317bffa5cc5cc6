import DBus

/// A D-Bus message from any peer on the session bus, as libdbus hands it over: whatever
/// libdbus accepts, the reader reads without reading past the message (AddressSanitizer
/// watches every byte libdbus allocated), and the values read, written into a message
/// of our own and read again, are the same values.
enum BusFuzz {
    static let target = FuzzTarget("dbus", "D-Bus messages from any peer (variants, nested containers, wrong signatures)", grow: BusFuzz.grow,
                                    read: { bytes in _ = try? bytes.withUnsafeBytes({ Message.demarshal($0) })?.arguments() }) { bytes throws(FuzzFailure) in
        guard let message = bytes.withUnsafeBytes({ Message.demarshal($0) }) else { return }
        // The header fields every handler looks at.
        _ = (message.kind, message.sender, message.path, message.interface, message.member, message.errorName)
        let signature = message.signature
        guard let values = try? message.arguments() else { return }
        try expect(values.map(\.signature).joined() == signature, "read \(values.map(\.signature)) from a body of signature \(signature.shown)")
        let copy: Message
        do throws(BusError) {
            copy = try Message.signal(path: "/io/github/nudge/Fuzz", interface: "io.github.nudge.Fuzz", member: "Copy")
            try copy.append(contentsOf: values)
        } catch {
            throw FuzzFailure("values of signature \(signature.shown) read, but they cannot be written: \(error)")
        }
        guard let wire = copy.marshal(), let back = wire.withUnsafeBytes({ Message.demarshal($0) }) else {
            throw FuzzFailure("a message of signature \(signature.shown) written by us is refused by libdbus")
        }
        let again: [Value]
        do throws(BusError) { again = try back.arguments() } catch { throw FuzzFailure("our copy of \(signature.shown) does not read: \(error)") }
        try expect(again.count == values.count && zip(again, values).allSatisfy(same), "values of \(signature.shown) read back otherwise")
    }

    /// One message of about `size` bytes: the seed's values, as a structure in a variant,
    /// again and again in one array (a peer's big message; libdbus takes one of up to
    /// 128 MB). The seed's bytes repeated when they are not a message.
    static let grow: @Sendable ([UInt8], Int) -> [UInt8] = { seed, size in
        guard let message = seed.withUnsafeBytes({ Message.demarshal($0) }), let values = try? message.arguments() else {
            return FuzzTarget.repeating(seed, size)
        }
        let item = Value.variant(values.isEmpty ? .string("x") : .structure(values))
        func wire(_ count: Int) -> [UInt8] {
            guard let big = try? Message.signal(path: "/io/github/nudge/Fuzz", interface: "io.github.nudge.Fuzz", member: "Big"),
                  (try? big.append(.array(element: "v", Array(repeating: item, count: count)))) != nil else { return [] }
            return big.marshal() ?? []
        }
        let (one, two) = (wire(1).count, wire(2).count)
        guard two > one else { return FuzzTarget.repeating(seed, size) }
        return wire(max(1, (size - one) / (two - one) + 1))
    }

    /// Equal, a double by its bits (NaN is itself).
    static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
        case (.array(let e1, let v1), .array(let e2, let v2)): e1 == e2 && v1.count == v2.count && zip(v1, v2).allSatisfy(same)
        case (.structure(let v1), .structure(let v2)): v1.count == v2.count && zip(v1, v2).allSatisfy(same)
        case (.dictEntry(let k1, let v1), .dictEntry(let k2, let v2)): same(k1, k2) && same(v1, v2)
        case (.variant(let v1), .variant(let v2)): same(v1, v2)
        default: a == b
        }
    }
}
