// The session's offer/answer API speaks in the SDP module's types (`SessionDescription`,
// `MediaDescription`, `RTPMap`, `MediaDirection`, …): a softphone that imports MediaSession
// gets them without a second import, as before they moved into their own module.
@_exported import SDP
