import RTP

extension FuzzTarget {
    /// The RTP module's fuzz targets: every parser, with every accessor read after a successful
    /// parse so that a view's lazy reads are exercised too.
    static let rtp: [FuzzTarget] = [
        FuzzTarget(name: "rtp-packet") { bytes in
            guard let packet = try? RTPPacket(bytes) else { return }
            var sum = UInt64(packet.payloadType) &+ UInt64(packet.sequenceNumber.rawValue)
            sum &+= UInt64(packet.timestamp.rawValue) &+ UInt64(packet.ssrc) &+ UInt64(packet.payload.count)
            for csrc in packet.csrcs { sum &+= UInt64(csrc) }
            if let headerExtension = packet.headerExtension {
                for element in headerExtension.elements { sum &+= UInt64(element.id) &+ UInt64(element.data.count) }
                sum &+= headerExtension.elementsAreWellFormed ? 1 : 0
            }
            _ = DatagramClassifier.classify(bytes)
            consume(sum)
        },
        FuzzTarget(name: "rtcp-compound") { bytes in
            guard let compound = try? RTCPCompoundPacket(bytes) else { return }
            consume(RTCPDigest.digest(compound))
        },
        FuzzTarget(name: "dtmf-event") { bytes in
            var receiver = DTMFReceiver()
            var offset = 0
            while offset + 8 <= bytes.count {
                let chunk = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 8)])
                if let payload = try? DTMFEventPayload(parsing: chunk) {
                    let timestamp = RTPTimestamp(UInt32(chunk[4]) << 8 | UInt32(chunk[5]))
                    for press in receiver.receive(payload, timestamp: timestamp) { consume(press.duration) }
                }
                offset += 8
            }
            _ = receiver.flush()
        },
        FuzzTarget(name: "comfort-noise") { bytes in
            guard let payload = try? ComfortNoisePayload(parsing: bytes) else { return }
            consume(UInt64(payload.noiseLevel) &+ UInt64(payload.reflectionCoefficients.count))
        },
    ]
}

/// Reads every field of every packet of a compound.
private enum RTCPDigest {
    static func digest(_ compound: RTCPCompoundPacket) -> UInt64 {
        var sum: UInt64 = 0
        for packet in compound {
            switch packet {
            case .senderReport(let report):
                sum &+= report.senderInfo.ntpTimestamp.rawValue &+ UInt64(report.profileExtension.count)
                for block in report.reportBlocks { sum &+= digest(block) }
            case .receiverReport(let report):
                for block in report.reportBlocks { sum &+= digest(block) }
            case .sourceDescription(let description):
                for chunk in description.chunks {
                    for item in chunk.items { sum &+= UInt64(item.type.rawValue) &+ UInt64(item.value.count) }
                }
            case .goodbye(let goodbye):
                for ssrc in goodbye.ssrcs { sum &+= UInt64(ssrc) }
                sum &+= UInt64(goodbye.reason.count)
            case .application(let application):
                sum &+= UInt64(application.name) &+ UInt64(application.data.count)
            case .extendedReport(let report):
                for block in report.blocks {
                    switch block {
                    case .receiverReferenceTime(let time): sum &+= time.rawValue
                    case .dlrr(let items): for item in items { sum &+= UInt64(item.delaySinceLastReceiverReport) }
                    case .voipMetrics(let metrics): sum &+= UInt64(metrics.jitterBufferAbsoluteMaximum)
                    case .other(_, _, let contents): sum &+= UInt64(contents.count)
                    }
                }
            case .other(let other):
                sum &+= UInt64(other.body.count)
            }
        }
        return sum
    }

    static func digest(_ block: RTCPReportBlock) -> UInt64 {
        UInt64(block.ssrc) &+ UInt64(bitPattern: Int64(block.cumulativeLost)) &+ UInt64(block.jitter)
    }
}

/// Keeps a value alive so the reads that produced it are not optimised away.
@inline(never)
func consume(_ value: UInt64) {
    withExtendedLifetime(value) {}
}
