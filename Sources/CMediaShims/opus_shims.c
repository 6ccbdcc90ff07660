#include "CMediaShims.h"

#include <stddef.h>

int mb_opus_encoder_set(OpusEncoder *encoder, int request, opus_int32 value) {
    return opus_encoder_ctl(encoder, request, value);
}

int mb_opus_encoder_get(OpusEncoder *encoder, int request, opus_int32 *value) {
    return opus_encoder_ctl(encoder, request, value);
}

int mb_opus_encoder_final_range(OpusEncoder *encoder, opus_uint32 *value) {
    return opus_encoder_ctl(encoder, OPUS_GET_FINAL_RANGE(value));
}

int mb_opus_encoder_reset(OpusEncoder *encoder) {
    return opus_encoder_ctl(encoder, OPUS_RESET_STATE);
}

int mb_opus_decoder_set(OpusDecoder *decoder, int request, opus_int32 value) {
    return opus_decoder_ctl(decoder, request, value);
}

int mb_opus_decoder_get(OpusDecoder *decoder, int request, opus_int32 *value) {
    return opus_decoder_ctl(decoder, request, value);
}

int mb_opus_decoder_final_range(OpusDecoder *decoder, opus_uint32 *value) {
    return opus_decoder_ctl(decoder, OPUS_GET_FINAL_RANGE(value));
}

int mb_opus_decoder_reset(OpusDecoder *decoder) {
    return opus_decoder_ctl(decoder, OPUS_RESET_STATE);
}

opus_int32 mb_opus_encode(OpusEncoder *encoder, const opus_int16 *pcm, int frame_size,
                          void *packet, opus_int32 max_packet_bytes) {
    return opus_encode(encoder, pcm, frame_size, packet, max_packet_bytes);
}

int mb_opus_decode(OpusDecoder *decoder, const void *packet, opus_int32 length, opus_int16 *pcm,
                   int frame_size, int decode_fec) {
    return opus_decode(decoder, packet, length, pcm, frame_size, decode_fec);
}

int mb_opus_decoder_get_nb_samples(const OpusDecoder *decoder, const void *packet, opus_int32 length) {
    return opus_decoder_get_nb_samples(decoder, packet, length);
}

int mb_opus_packet_first_frame(const void *packet, opus_int32 length, opus_int32 *first_frame_offset,
                               opus_int32 *first_frame_bytes) {
    const unsigned char *frames[48];
    opus_int16 sizes[48];
    int count = opus_packet_parse(packet, length, NULL, frames, sizes, NULL);
    if (count > 0) {
        *first_frame_offset = (opus_int32)(frames[0] - (const unsigned char *)packet);
        *first_frame_bytes = sizes[0];
    }
    return count;
}
