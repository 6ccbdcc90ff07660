// A plain C program driving libopus, the independent oracle our Opus wrapper's bit-exactness is
// checked against (Tests/CodecsTests/OpusRangeTests.swift). Not a benchmark peer: it does not
// speak the timing protocol (the benchmark peer is opus.c). It reads 16-bit native-endian
// interleaved PCM from a raw file.
//
//   opus_range range INPUT RATE CHANNELS FRAME_SAMPLES APPLICATION COMPLEXITY BITRATE VBR
//                   VBR_CONSTRAINT FEC LOSS_PERCENT DTX MAX_BANDWIDTH
//       Encodes every whole frame with those settings (APPLICATION, BITRATE and MAX_BANDWIDTH are
//       libopus' numeric constants), decodes each packet, and prints one line per packet:
//       "<bytes> <encoder final range> <decoder final range> <packet hex>".
#include <opus.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static opus_int16 *read_pcm(const char *path, long *samples) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(1); }
    fseek(file, 0, SEEK_END);
    long bytes = ftell(file);
    fseek(file, 0, SEEK_SET);
    opus_int16 *pcm = malloc(bytes > 0 ? bytes : 1);
    if (fread(pcm, 1, bytes, file) != (size_t)bytes) { perror("fread"); exit(1); }
    fclose(file);
    *samples = bytes / 2;
    return pcm;
}

static void check(int status, const char *call) {
    if (status < 0) { fprintf(stderr, "%s: %s\n", call, opus_strerror(status)); exit(1); }
}

static int range_mode(int argc, char **argv) {
    if (argc != 15) { fprintf(stderr, "range: wrong argument count\n"); return 2; }
    long total;
    opus_int16 *pcm = read_pcm(argv[2], &total);
    int rate = atoi(argv[3]), channels = atoi(argv[4]), frame = atoi(argv[5]);
    int status;
    OpusEncoder *encoder = opus_encoder_create(rate, channels, atoi(argv[6]), &status);
    check(status, "opus_encoder_create");
    OpusDecoder *decoder = opus_decoder_create(rate, channels, &status);
    check(status, "opus_decoder_create");
    check(opus_encoder_ctl(encoder, OPUS_SET_BITRATE(atoi(argv[8]))), "OPUS_SET_BITRATE");
    check(opus_encoder_ctl(encoder, OPUS_SET_COMPLEXITY(atoi(argv[7]))), "OPUS_SET_COMPLEXITY");
    check(opus_encoder_ctl(encoder, OPUS_SET_MAX_BANDWIDTH(atoi(argv[14]))), "OPUS_SET_MAX_BANDWIDTH");
    check(opus_encoder_ctl(encoder, OPUS_SET_VBR(atoi(argv[9]))), "OPUS_SET_VBR");
    check(opus_encoder_ctl(encoder, OPUS_SET_VBR_CONSTRAINT(atoi(argv[10]))), "OPUS_SET_VBR_CONSTRAINT");
    check(opus_encoder_ctl(encoder, OPUS_SET_INBAND_FEC(atoi(argv[11]))), "OPUS_SET_INBAND_FEC");
    check(opus_encoder_ctl(encoder, OPUS_SET_PACKET_LOSS_PERC(atoi(argv[12]))), "OPUS_SET_PACKET_LOSS_PERC");
    check(opus_encoder_ctl(encoder, OPUS_SET_DTX(atoi(argv[13]))), "OPUS_SET_DTX");

    unsigned char packet[4000];
    opus_int16 *decoded = malloc(sizeof(opus_int16) * 5760 * channels);
    long step = (long)frame * channels;
    for (long offset = 0; offset + step <= total; offset += step) {
        int bytes = opus_encode(encoder, pcm + offset, frame, packet, sizeof packet);
        check(bytes, "opus_encode");
        opus_uint32 encoder_range, decoder_range;
        opus_encoder_ctl(encoder, OPUS_GET_FINAL_RANGE(&encoder_range));
        check(opus_decode(decoder, packet, bytes, decoded, 5760, 0), "opus_decode");
        opus_decoder_ctl(decoder, OPUS_GET_FINAL_RANGE(&decoder_range));
        printf("%d %u %u ", bytes, encoder_range, decoder_range);
        for (int index = 0; index < bytes; index++) printf("%02x", packet[index]);
        printf("\n");
    }
    opus_encoder_destroy(encoder);
    opus_decoder_destroy(decoder);
    free(decoded);
    free(pcm);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "range") == 0) return range_mode(argc, argv);
    fprintf(stderr, "usage: opus_range range INPUT ...\n");
    return 2;
}
