// One-line forwarders for C APIs that Swift cannot call directly: libopus' variadic
// `opus_*_ctl` requests. Only the Codecs module imports this target.
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

#endif
