import CXML
import NudgeSync

/// XML bytes as an ``XMLNode`` tree, through libxml2 (`xmlReadMemory`).
///
/// Safe with what comes from outside: no network (`XML_PARSE_NONET`), no DTD loaded, no
/// entity substituted (neither option is given), and a document that declares a DTD at
/// all is refused, since no WebDAV answer has one; entity references are never expanded
/// (only text and CDATA are read). Depth and element count are capped.
public enum XMLReader {
    /// The deepest nesting read.
    public static let maxDepth = 64
    /// The most elements read from one document.
    public static let maxElements = 2_000_000

    /// The document's root element.
    public static func read(_ bytes: [UInt8]) throws(DAVError) -> XMLNode {
        guard !bytes.isEmpty else { throw .malformed("the answer is empty") }
        guard bytes.count < Int(Int32.max) else { throw .malformed("the answer is too large") }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xmlReadMemory($0, Int32(buffer.count), "answer.xml", nil, options)
            }
        }
        guard let document else { throw .malformed("it is not well-formed XML") }
        defer { xmlFreeDoc(document) }
        guard document.pointee.intSubset == nil, document.pointee.extSubset == nil else {
            throw .malformed("it declares a DTD, which no WebDAV answer has")
        }
        guard let root = xmlDocGetRootElement(document) else { throw .malformed("it has no root element") }
        var count = 0
        return try node(root, depth: 0, count: &count)
    }

    private static func node(_ element: xmlNodePtr, depth: Int, count: inout Int) throws(DAVError) -> XMLNode {
        count += 1
        guard depth < maxDepth else { throw .malformed("it is nested deeper than \(maxDepth)") }
        guard count <= maxElements else { throw .tooMany(maxElements) }
        let namespace = element.pointee.ns.flatMap { $0.pointee.href }.map { String(cString: $0) } ?? ""
        let name = element.pointee.name.map { String(cString: $0) } ?? ""
        var result = XMLNode(namespace, name)
        var attribute = element.pointee.properties
        while let current = attribute {
            if let attributeName = current.pointee.name, let value = current.pointee.children?.pointee.content {
                result.attributes[String(cString: attributeName)] = String(cString: value)
            }
            attribute = current.pointee.next
        }
        var child = element.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE: result.children.append(try node(current, depth: depth + 1, count: &count))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { result.text += String(cString: content) }
            default: break
            }
            child = current.pointee.next
        }
        return result
    }
}
