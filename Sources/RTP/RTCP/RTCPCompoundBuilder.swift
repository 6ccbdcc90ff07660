/// Writes an RTCP compound packet into a caller's buffer, enforcing RFC 3550 §6.1.
///
/// The first packet must be an SR or RR, and ``finish()`` refuses a compound without an SDES
/// packet holding a CNAME item. Each `add…` call appends one packet; every call throws
/// ``RTPError/Reason/bufferTooSmall(needed:available:)`` when the buffer is full.
///
///     var builder = RTCPCompoundBuilder(into: buffer)
///     try builder.addReceiverReport(ssrc: me, reportBlocks: [block])
///     try builder.addSourceDescription([RTCPSourceDescriptionChunk(ssrc: me, items: [.init(.cname, "me@host")])])
///     let length = try builder.finish()
public struct RTCPCompoundBuilder {
    private var writer: ByteWriter
    private var hasCNAME = false

    /// A builder writing from the first byte of `buffer`.
    public init(into buffer: UnsafeMutableRawBufferPointer) {
        writer = ByteWriter(buffer)
    }

    /// Appends a sender report with up to 31 report blocks.
    public mutating func addSenderReport(
        ssrc: UInt32, senderInfo: RTCPSenderInfo, reportBlocks: [RTCPReportBlock] = []
    ) throws(RTPError) {
        let start = try beginPacket(type: RTCPPacketType.senderReport, count: reportBlocks.count, isReport: true)
        try writer.write(ssrc)
        try senderInfo.write(to: &writer)
        for block in reportBlocks { try block.write(to: &writer) }
        try endPacket(startingAt: start)
    }

    /// Appends a receiver report with up to 31 report blocks.
    public mutating func addReceiverReport(ssrc: UInt32, reportBlocks: [RTCPReportBlock] = []) throws(RTPError) {
        let start = try beginPacket(type: RTCPPacketType.receiverReport, count: reportBlocks.count, isReport: true)
        try writer.write(ssrc)
        for block in reportBlocks { try block.write(to: &writer) }
        try endPacket(startingAt: start)
    }

    /// Appends a source description of up to 31 chunks; item texts are at most 255 bytes.
    public mutating func addSourceDescription(_ chunks: [RTCPSourceDescriptionChunk]) throws(RTPError) {
        let start = try beginPacket(type: RTCPPacketType.sourceDescription, count: chunks.count)
        for chunk in chunks {
            try writer.write(chunk.ssrc)
            for item in chunk.items {
                let length = item.text.utf8.count
                guard item.type.rawValue != 0, length <= 255 else {
                    throw RTPError(.valueOutOfRange(field: .sdesItem, value: length), at: writer.offset)
                }
                try writer.write(item.type.rawValue)
                try writer.write(UInt8(length))
                try writer.write(item.text)
                if item.type == .cname { hasCNAME = true }
            }
            try writer.writeZeros(4 - writer.offset % 4)
        }
        try endPacket(startingAt: start)
    }

    /// Appends a goodbye for up to 31 sources, with an optional reason of at most 255 bytes.
    public mutating func addGoodbye(ssrcs: [UInt32], reason: String? = nil) throws(RTPError) {
        let start = try beginPacket(type: RTCPPacketType.goodbye, count: ssrcs.count)
        for ssrc in ssrcs { try writer.write(ssrc) }
        if let reason {
            let length = reason.utf8.count
            guard length <= 255 else {
                throw RTPError(.valueOutOfRange(field: .byeReason, value: length), at: writer.offset)
            }
            try writer.write(UInt8(length))
            try writer.write(reason)
            try writer.writeZeros((4 - writer.offset % 4) % 4)
        }
        try endPacket(startingAt: start)
    }

    /// Appends an application-defined packet.
    ///
    /// - Parameters:
    ///   - subtype: the 5-bit subtype.
    ///   - ssrc: the sender.
    ///   - name: four ASCII characters, as a big-endian 32-bit value.
    ///   - data: the application data, a multiple of 4 bytes long.
    public mutating func addApplication(
        subtype: UInt8, ssrc: UInt32, name: UInt32, data: UnsafeRawBufferPointer
    ) throws(RTPError) {
        guard subtype < 32, data.count % 4 == 0 else {
            throw RTPError(.valueOutOfRange(field: .applicationData, value: data.count), at: writer.offset)
        }
        let start = try beginPacket(type: RTCPPacketType.application, count: Int(subtype))
        try writer.write(ssrc)
        try writer.write(name)
        try writer.write(data)
        try endPacket(startingAt: start)
    }

    /// Appends an extended report (RFC 3611) with, in this order, an optional Receiver
    /// Reference Time block, an optional DLRR block and any VoIP Metrics blocks.
    public mutating func addExtendedReport(
        ssrc: UInt32, receiverReferenceTime: NTPTimestamp? = nil, dlrr: [RTCPDLRRItem] = [],
        voipMetrics: [RTCPVoIPMetrics] = []
    ) throws(RTPError) {
        let start = try beginPacket(type: RTCPPacketType.extendedReport, count: 0)
        try writer.write(ssrc)
        if let receiverReferenceTime {
            try writeBlockHeader(type: RTCPExtendedReportBlockType.receiverReferenceTime, words: 2)
            try writer.write(receiverReferenceTime.seconds)
            try writer.write(receiverReferenceTime.fraction)
        }
        if !dlrr.isEmpty {
            try writeBlockHeader(type: RTCPExtendedReportBlockType.dlrr, words: dlrr.count * 3)
            for item in dlrr {
                try writer.write(item.ssrc)
                try writer.write(item.lastReceiverReport)
                try writer.write(item.delaySinceLastReceiverReport)
            }
        }
        for metrics in voipMetrics {
            try writeBlockHeader(type: RTCPExtendedReportBlockType.voipMetrics, words: RTCPVoIPMetrics.lengthWords)
            try metrics.write(to: &writer)
        }
        try endPacket(startingAt: start)
    }

    /// Checks the compound rules and returns the compound's length.
    ///
    /// - Throws: ``RTPError/Reason/compoundWithoutCNAME`` when no SDES CNAME item was added.
    public func finish() throws(RTPError) -> Int {
        guard hasCNAME else { throw RTPError(.compoundWithoutCNAME, at: writer.offset) }
        return writer.offset
    }

    /// Writes a packet header with a zero length (patched by ``endPacket(startingAt:)``).
    private mutating func beginPacket(type: UInt8, count: Int, isReport: Bool = false) throws(RTPError) -> Int {
        guard isReport || writer.offset > 0 else { throw RTPError(.compoundMustStartWithReport, at: 0) }
        guard count < 32 else { throw RTPError(.valueOutOfRange(field: .itemCount, value: count), at: writer.offset) }
        let start = writer.offset
        try writer.write(0x80 | UInt8(count))
        try writer.write(type)
        try writer.write(UInt16(0))
        return start
    }

    /// Patches the length field of the packet that started at `start`.
    private mutating func endPacket(startingAt start: Int) throws(RTPError) {
        let words = (writer.offset - start) / 4 - 1
        guard words <= Int(UInt16.max) else { throw RTPError(.valueOutOfRange(field: .rtcpLength, value: words), at: start) }
        writer.patch(UInt16(words), at: start + 2)
    }

    private mutating func writeBlockHeader(type: UInt8, words: Int) throws(RTPError) {
        guard words <= Int(UInt16.max) else { throw RTPError(.valueOutOfRange(field: .rtcpLength, value: words), at: writer.offset) }
        try writer.write(type)
        try writer.write(UInt8(0))
        try writer.write(UInt16(words))
    }
}
