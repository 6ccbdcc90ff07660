// One-line forwarders for C APIs that Swift cannot call directly, or not comfortably: libopus'
// variadic `opus_*_ctl` requests, and the byte-buffer calls taking `unsigned char *`, declared
// here with `void *` so Swift passes raw buffers without rebinding memory.
// Only the Codecs module imports this target.
#ifndef CMEDIASHIMS_H
#define CMEDIASHIMS_H

#include <opus.h>

/// Sends an `OPUS_SET_*` request that takes one `opus_int32` to an encoder.
int mb_opus_encoder_set(OpusEncoder *encoder, int request, opus_int32 value);
/// Sends an `OPUS_GET_*` request that returns one `opus_int32` from an encoder.
int mb_opus_encoder_get(OpusEncoder *encoder, int request, opus_int32 *value);
/// Reads `OPUS_GET_FINAL_RANGE` from an encoder.
int mb_opus_encoder_final_range(OpusEncoder *encoder, opus_uint32 *value);
/// Sends `OPUS_RESET_STATE` to an encoder.
int mb_opus_encoder_reset(OpusEncoder *encoder);

/// Sends an `OPUS_SET_*` request that takes one `opus_int32` to a decoder.
int mb_opus_decoder_set(OpusDecoder *decoder, int request, opus_int32 value);
/// Sends an `OPUS_GET_*` request that returns one `opus_int32` from a decoder.
int mb_opus_decoder_get(OpusDecoder *decoder, int request, opus_int32 *value);
/// Reads `OPUS_GET_FINAL_RANGE` from a decoder.
int mb_opus_decoder_final_range(OpusDecoder *decoder, opus_uint32 *value);
/// Sends `OPUS_RESET_STATE` to a decoder.
int mb_opus_decoder_reset(OpusDecoder *decoder);

/// `opus_encode` writing the packet into an untyped buffer.
opus_int32 mb_opus_encode(OpusEncoder *encoder, const opus_int16 *pcm, int frame_size,
                          void *packet, opus_int32 max_packet_bytes);
/// `opus_decode` reading the packet from an untyped buffer (`NULL` with length 0 conceals).
int mb_opus_decode(OpusDecoder *decoder, const void *packet, opus_int32 length, opus_int16 *pcm,
                   int frame_size, int decode_fec);
/// `opus_decoder_get_nb_samples` on an untyped buffer.
int mb_opus_decoder_get_nb_samples(const OpusDecoder *decoder, const void *packet, opus_int32 length);
/// `opus_packet_parse` on an untyped buffer: returns the frame count (or a negative libopus
/// error) and reports where the first frame starts and how long it is.
int mb_opus_packet_first_frame(const void *packet, opus_int32 length, opus_int32 *first_frame_offset,
                               opus_int32 *first_frame_bytes);

#endif
