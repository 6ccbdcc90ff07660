#include "CMediaShims.h"

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
