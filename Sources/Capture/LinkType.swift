internal import CPcap

/// The link-layer header type of a capture (libpcap's `DLT_` value, as `pcap_datalink` reports it).
///
/// Every frame of one file has the same link type. The constants below are the ones the frame
/// decoder understands; any other value is still a valid link type, whose frames are skipped as
/// ``SkipReason/unsupportedLinkType``.
public struct LinkType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `DLT_` value.
    public let rawValue: Int32

    /// A link type from its `DLT_` value.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// BSD loopback (`DLT_NULL`): a 4-byte address family in the capturing host's byte order.
    public static let null = LinkType(rawValue: 0)
    /// Ethernet II and 802.3 (`DLT_EN10MB`).
    public static let ethernet = LinkType(rawValue: 1)
    /// Raw IPv4 or IPv6, told apart by the version nibble (`DLT_RAW`; files store it as 101).
    public static let raw = LinkType(rawValue: 12)
    /// Raw IP under its file-format number (`LINKTYPE_RAW`), accepted for synthetic frames.
    public static let rawIP = LinkType(rawValue: 101)
    /// OpenBSD loopback (`DLT_LOOP`): a 4-byte address family in network byte order.
    public static let loop = LinkType(rawValue: 108)
    /// Linux cooked capture, version 1 (`DLT_LINUX_SLL`), as captured on the `any` device.
    public static let linuxSLL = LinkType(rawValue: 113)
    /// Raw IPv4 only (`DLT_IPV4`).
    public static let ipv4 = LinkType(rawValue: 228)
    /// Raw IPv6 only (`DLT_IPV6`).
    public static let ipv6 = LinkType(rawValue: 229)
    /// Linux cooked capture, version 2 (`DLT_LINUX_SLL2`).
    public static let linuxSLL2 = LinkType(rawValue: 276)

    /// Whether the frame decoder understands this link type.
    public var isDecodable: Bool {
        switch self {
        case .null, .ethernet, .raw, .rawIP, .loop, .linuxSLL, .ipv4, .ipv6, .linuxSLL2: true
        default: false
        }
    }

    /// libpcap's name and description for the type with its number, for example
    /// `EN10MB (Ethernet, 1)`, or `link type 4242` when libpcap does not know it.
    public var description: String {
        guard let name = pcap_datalink_val_to_name(rawValue) else {
            return "link type \(rawValue)"
        }
        let summary = pcap_datalink_val_to_description(rawValue).map { String(cString: $0) + ", " } ?? ""
        return "\(String(cString: name)) (\(summary)\(rawValue))"
    }
}
