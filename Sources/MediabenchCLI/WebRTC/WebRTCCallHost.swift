import Codecs
import Foundation
import MediaSession
import QualityMetrics
import SecureTransport
import Synchronization

/// What the `webrtc` command's HTTP endpoints share with the command: the one call (created by
/// `POST /offer`), its quality lines and DTMF, and the page's posted results.
final class WebRTCCallHost: Sendable {
    private struct State {
        var call: WebRTCCall?
        var endpoint: MemoryAudioEndpoint?
        var refusal: String?
        var qualityLine: String?
        var meanOpinionScores: [Double] = []
        var dtmfReceived = ""
        var pageResult: [String: Any]?
    }

    private let state = Mutex(UnsafeTransfer(State()))
    private let configuration: MediaSessionConfiguration
    private let certificate: DTLSCertificate
    private let speech: [Int16]
    private let recordingSamples: Int

    /// A host answering with `configuration` (its audio is replaced by a memory endpoint playing
    /// `speech` and recording up to `recordingSamples`).
    init(configuration: MediaSessionConfiguration, certificate: DTLSCertificate, speech: [Int16], recordingSamples: Int) {
        self.configuration = configuration
        self.certificate = certificate
        self.speech = speech
        self.recordingSamples = recordingSamples
    }

    /// The call, once an offer was answered.
    var call: WebRTCCall? { state.withLock { $0.value.call } }
    /// Why the last offer was refused, if it was.
    var refusal: String? { state.withLock { $0.value.refusal } }
    /// What the call's endpoint recorded.
    var recorded: [Int16] { state.withLock { $0.value.endpoint?.recorded } ?? [] }
    /// The digits received so far.
    var dtmfReceived: String { state.withLock { $0.value.dtmfReceived } }
    /// The mean of the per-second MOS figures.
    var meanOpinionScore: Double? {
        state.withLock { state in
            let scores = state.value.meanOpinionScores
            return scores.isEmpty ? nil : scores.reduce(0, +) / Double(scores.count)
        }
    }
    /// What the page posted to `/result`.
    var pageResult: [String: Any]? { state.withLock { $0.value.pageResult } }

    /// Routes one request.
    func handle(_ request: HTTPRequest) -> HTTPResponse {
        switch (request.method, request.path) {
        case ("GET", "/"), ("GET", "/index.html"):
            return HTTPResponse(contentType: "text/html; charset=utf-8", text: WebRTCPage.html)
        case ("GET", "/stats"):
            return .json(stats())
        case ("POST", "/offer"):
            return offer(request.body)
        case ("POST", "/result"):
            guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any] else {
                return HTTPResponse(status: 400, contentType: "text/plain", text: "expected a JSON object\n")
            }
            state.withLock { $0.value.pageResult = object }
            return .json(["ok": true])
        default:
            return HTTPResponse(status: 404, contentType: "text/plain", text: "not found\n")
        }
    }

    private func offer(_ body: [UInt8]) -> HTTPResponse {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let sdp = object["sdp"] as? String, object["type"] as? String == "offer"
        else {
            return HTTPResponse(status: 400, contentType: "text/plain", text: "expected {\"sdp\": …, \"type\": \"offer\"}\n")
        }
        guard call == nil else { return HTTPResponse(status: 409, contentType: "text/plain", text: "a call is already up\n") }
        let endpoint = MemoryAudioEndpoint(source: speech, recordingCapacitySamples: recordingSamples)
        var configuration = configuration
        configuration.audio = .endpoint(endpoint)
        let call: WebRTCCall
        do {
            call = try WebRTCCall(offer: SessionDescription(parsing: sdp), configuration: configuration, certificate: certificate)
        } catch {
            state.withLock { $0.value.refusal = "\(error)" }
            return HTTPResponse(status: 400, contentType: "text/plain", text: "\(error)\n")
        }
        state.withLock { state in
            state.value.call = call
            state.value.endpoint = endpoint
        }
        Task { [self] in
            for await report in call.session.qualityReports {
                state.withLock { state in
                    state.value.qualityLine = report.quality.description
                    if let score = report.quality.meanOpinionScore { state.value.meanOpinionScores.append(score) }
                }
            }
        }
        Task { [self] in
            for await event in call.session.events {
                if case let .dtmfReceived(digit) = event { state.withLock { $0.value.dtmfReceived.append(digit) } }
            }
        }
        return .json(["sdp": call.answer.text, "type": "answer"])
    }

    private func stats() -> [String: Any] {
        state.withLock { state in
            guard let call = state.value.call else { return ["state": state.value.refusal.map { "refused: \($0)" } ?? "waiting for a call"] }
            let statistics = call.session.statistics
            return [
                "state": WebRTCSummary.text(of: call.state), "quality": state.value.qualityLine ?? "",
                "rtp_received": statistics.rtpPacketsReceived, "rtp_sent": statistics.rtpPacketsSent,
            ]
        }
    }
}

/// Lets a non-`Sendable` value (a JSON dictionary) live in a `Mutex`; every access is inside the lock.
struct UnsafeTransfer<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
