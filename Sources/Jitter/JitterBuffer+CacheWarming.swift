extension JitterBuffer {
    /// Reports to `visit` the buffer's storage beyond the value itself that the next insert and
    /// the next two pulls of a steady stream touch: the lowest packet slots, the arrivals
    /// awaiting a pull, the queued PCM with room for a frame after it, and the decoder's output
    /// for one frame. A thread that serves
    /// many buffers in turn warms it into the cache ahead (their state has left the caches
    /// since their last turn); `visit` may only read it.
    @usableFromInline package func hotRegions(_ visit: (UnsafeRawPointer, Int) -> Void) {
        store.hotRegions(visit)
        pendingArrivals.hotRegions(visit)
        queue.hotRegions(appending: frameSamples, visit)
        if let scratch = decodeScratch.baseAddress {
            visit(UnsafeRawPointer(scratch), min(decodeScratch.count, frameSamples * queue.channels) * MemoryLayout<Int16>.stride)
        }
    }
}
