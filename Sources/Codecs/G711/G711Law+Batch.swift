extension G711Law {
    /// Encodes every sample of `pcm` into the first `pcm.count` bytes of `codes`.
    ///
    /// One table load per sample, no allocation; inlinable so that callers in other modules get
    /// the loop compiled into their own code.
    /// - Precondition: `codes.count >= pcm.count`.
    @inlinable
    public func encode(_ pcm: UnsafeBufferPointer<Int16>, into codes: UnsafeMutableBufferPointer<UInt8>) {
        precondition(codes.count >= pcm.count, "G.711 encode: \(codes.count) bytes cannot hold \(pcm.count) codes")
        guard let input = pcm.baseAddress, let output = codes.baseAddress else { return }
        let count = pcm.count
        let shift = encodeShift
        encodeTable.withUnsafeBufferPointer { table in
            guard let table = table.baseAddress else { return }
            for index in 0..<count {
                output[index] = table[Int(UInt16(bitPattern: input[index]) &>> shift)]
            }
        }
    }

    /// Decodes every code of `codes` into the first `codes.count` samples of `pcm`.
    ///
    /// One load from a 256-entry table per sample, no allocation.
    /// - Precondition: `pcm.count >= codes.count`.
    @inlinable
    public func decode(_ codes: UnsafeBufferPointer<UInt8>, into pcm: UnsafeMutableBufferPointer<Int16>) {
        precondition(pcm.count >= codes.count, "G.711 decode: \(pcm.count) samples cannot hold \(codes.count) codes")
        guard let input = codes.baseAddress, let output = pcm.baseAddress else { return }
        let table = decodeTable
        for index in 0..<codes.count {
            output[index] = table[Int(input[index])]
        }
    }
}
