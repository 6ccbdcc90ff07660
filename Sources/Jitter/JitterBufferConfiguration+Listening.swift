extension JitterBufferConfiguration {
    /// Settings for listening (recording, streaming, a one-way announcement), where delay costs
    /// nothing: the target holds the 99.5th percentile of the relative delay, falls at most
    /// 1 ms a second, and the first words play 250 ms late. This was the default until the
    /// conversational rating judged the buffer: it scores the best PESQ of the buffers
    /// compared by `mediabench bench jitter --audio`, and a worse R_conv wherever the network
    /// has a heavy tail (on `heavy-jitter`, p95 334 ms for 2.37 % effective loss).
    public static var listening: JitterBufferConfiguration {
        var configuration = JitterBufferConfiguration()
        configuration.conversationalBaseDelayMilliseconds = nil
        configuration.delayQuantile = 0.995
        configuration.targetDecayMillisecondsPerSecond = 1
        configuration.initialDelayMilliseconds = 250
        return configuration
    }
}
