internal import CNetShims

/// Reusable storage for receiving many datagrams with one system call (recvmmsg).
///
/// Allocated once, with the system call's message headers built once too (a receive resets
/// only the fields the kernel wrote, of the slots it filled); each receive overwrites it, so
/// nothing is allocated or rebuilt per datagram. The bytes of a datagram are mutable so SRTP
/// can be removed in place.
public struct DatagramBatch: ~Copyable {
    private let slots: UnsafeMutablePointer<mb_datagram>
    private let buffers: UnsafeMutableRawPointer
    private let headers: OpaquePointer
    /// How many datagrams one receive can take.
    public let capacity: Int
    /// The largest datagram kept whole; longer ones are cut and flagged ``ReceivedDatagram/isTruncated``.
    public let maximumDatagramBytes: Int
    /// How many datagrams the last receive filled.
    public private(set) var count = 0

    /// Storage for `capacity` datagrams (at most 64) of up to `maximumDatagramBytes` each.
    public init(capacity: Int = 32, maximumDatagramBytes: Int = 1500) {
        self.capacity = max(1, min(capacity, 64))
        self.maximumDatagramBytes = max(1, maximumDatagramBytes)
        slots = .allocate(capacity: self.capacity)
        buffers = .allocate(byteCount: self.capacity * self.maximumDatagramBytes, alignment: 16)
        for index in 0..<self.capacity {
            (slots + index).initialize(to: mb_datagram())
            slots[index].buffer = buffers + index * self.maximumDatagramBytes
            slots[index].capacity = self.maximumDatagramBytes
        }
        guard let headers = mb_udp_receive_headers_create(slots, UInt32(self.capacity)) else {
            fatalError("out of memory for \(self.capacity) receive headers")
        }
        self.headers = headers
    }

    deinit {
        mb_udp_receive_headers_destroy(headers)
        slots.deinitialize(count: capacity)
        slots.deallocate()
        buffers.deallocate()
    }

    /// The datagram at `index` (below ``count``) from the last receive.
    public subscript(index: Int) -> ReceivedDatagram {
        precondition(index >= 0 && index < count, "datagram \(index) of a batch of \(count)")
        let slot = slots[index]
        let source = withUnsafeBytes(of: slot.address) { SocketAddress(storage: $0.baseAddress!) }
        return ReceivedDatagram(
            bytes: UnsafeMutableRawBufferPointer(start: slot.buffer, count: slot.length),
            source: source,
            arrivalNanoseconds: slot.timestamp_ns,
            isTruncated: slot.truncated != 0
        )
    }

    /// Receives into the slots; returns the count, or a negated errno.
    mutating func receive(from descriptor: Int32) -> Int {
        let received = Int(mb_udp_receive_batch(descriptor, headers, slots, UInt32(capacity)))
        count = max(0, received)
        return received
    }
}

/// One datagram of a ``DatagramBatch``; its bytes stay valid until the batch's next receive.
public struct ReceivedDatagram {
    /// The payload, mutable for in-place SRTP unprotection.
    public let bytes: UnsafeMutableRawBufferPointer
    /// Where it came from (nil for an address family other than IPv4/IPv6).
    public let source: SocketAddress?
    /// The kernel's receive time in nanoseconds since the Unix epoch (CLOCK_REALTIME), or 0
    /// when receive timestamps are off.
    public let arrivalNanoseconds: Int64
    /// Whether the datagram was longer than the batch's ``DatagramBatch/maximumDatagramBytes``.
    public let isTruncated: Bool
}
