// The smallest softphone audio path: two sessions on 127.0.0.1 negotiate G.711 through SDP text
// (offer, answer, apply, as a SIP layer would carry it), talk for a second from memory instead
// of a sound card, and print what the callee heard and its statistics.
//
// It links MediaSession alone, and so proves what a softphone pulls in: no libpcap, no
// simulator, no report renderer (scripts/check-softphone-links.sh reads its `ldd`).
//
//     swift run softphone-example
import Foundation
import MediaSession

/// One second of a 440 Hz tone at 8 kHz, as the caller's microphone.
let tone = (0..<8000).map { Int16(8000 * sin(2 * Double.pi * 440 * Double($0) / 8000)) }

func session(capturing source: [Int16]) throws -> (MediaSession, MemoryAudioEndpoint) {
    let audio = MemoryAudioEndpoint(source: source, recordingCapacitySamples: 8000 * 3)
    let configuration = MediaSessionConfiguration(
        codecs: [.pcmu], echoCancellation: false, noiseSuppression: false, audio: .endpoint(audio))
    return (try MediaSession(configuration: configuration), audio)
}

let (caller, callerAudio) = try session(capturing: tone)
let (callee, calleeAudio) = try session(capturing: [])

let offer = MediaNegotiation.offer(caller.localCapabilities).text
let (answer, calleeMedia) = try MediaNegotiation.answer(to: SessionDescription(parsing: offer), with: callee.localCapabilities)
let callerMedia = try MediaNegotiation.apply(answer: SessionDescription(parsing: answer.text), toOfferFrom: caller.localCapabilities)

try callee.start(negotiated: calleeMedia)
try caller.start(negotiated: callerMedia)
Thread.sleep(forTimeInterval: 1.5)
caller.stop()
callee.stop()

let heard = calleeAudio.recorded.filter { $0 != 0 }.count
print("callee heard \(heard) non-silent samples of the \(tone.count) sent; caller played \(callerAudio.recorded.count)")
print("callee: \(callee.statistics)")
