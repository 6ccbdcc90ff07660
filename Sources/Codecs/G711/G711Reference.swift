/// The G.711 companding arithmetic of the ITU-T G.191 STL reference (`g711.c` v3.01), one
/// sample at a time. It is used once, to fill ``G711Tables``; the codec itself only reads tables.
enum G711Reference {
    /// µ-law code of a 16-bit sample: the STL works on the top 14 bits, with a bias of 33.
    static func muLawEncode(_ sample: Int16) -> UInt8 {
        // One's complement for negative samples, so -1 maps like 0 (as the STL does).
        let magnitude = Int(sample < 0 ? ~sample : sample) >> 2
        let biased = min(magnitude + 33, 0x1FFF)
        var segment = 1
        var rest = biased >> 6
        while rest != 0 {
            segment += 1
            rest >>= 1
        }
        let highNibble = 8 - segment
        let lowNibble = 0xF - ((biased >> segment) & 0xF)
        let code = (highNibble << 4) | lowNibble
        return UInt8(sample >= 0 ? code | 0x80 : code)
    }

    /// A-law code of a 16-bit sample: the STL works on the top 12 bits, even bits inverted.
    static func aLawEncode(_ sample: Int16) -> UInt8 {
        var value = Int(sample < 0 ? ~sample : sample) >> 4
        if value > 15 {
            var exponent = 1
            while value > 16 + 15 {
                value >>= 1
                exponent += 1
            }
            value = value - 16 + (exponent << 4)
        }
        if sample >= 0 { value |= 0x80 }
        return UInt8(value ^ 0x55)
    }

    /// The 16-bit sample a µ-law code stands for (the middle of its quantisation step).
    static func muLawDecode(_ code: UInt8) -> Int16 {
        let inverted = Int(~code)
        let exponent = (inverted >> 4) & 0x7
        let mantissa = inverted & 0xF
        let step = 4 << (exponent + 1)
        let magnitude = (0x80 << exponent) + step * mantissa + step / 2 - 4 * 33
        return Int16(code < 0x80 ? -magnitude : magnitude)
    }

    /// The 16-bit sample an A-law code stands for (the middle of its quantisation step).
    static func aLawDecode(_ code: UInt8) -> Int16 {
        let toggled = Int(code ^ 0x55) & 0x7F
        let exponent = toggled >> 4
        var mantissa = toggled & 0xF
        if exponent > 0 { mantissa += 16 }
        mantissa = (mantissa << 4) + 8
        if exponent > 1 { mantissa <<= exponent - 1 }
        return Int16(code > 0x7F ? mantissa : -mantissa)
    }
}
