// Peer for the `opus` suite: the same Opus work as ours, calling libopus directly from C.
// Input is 16-bit native-endian mono or interleaved PCM in a raw file; the encoder is VOIP with
// the given complexity and bitrate, exactly as the suite configures ours.
//
//   opus --version
//   opus encode ITERATIONS INPUT RATE CHANNELS FRAME_SAMPLES COMPLEXITY BITRATE
//   opus decode ITERATIONS INPUT RATE CHANNELS FRAME_SAMPLES COMPLEXITY BITRATE
//       The timing protocol of Benchmarks/README.md: ITERATIONS frames, cycling over the input
//       from its first frame, after an untimed warm-up of at least 100 frames; prints the total
//       nanoseconds. `decode`
//       decodes packets encoded during set-up.
//   opus frame-times FRAMES INPUT RATE CHANNELS FRAME_SAMPLES COMPLEXITY BITRATE
//       From a fresh encoder and decoder, times each of FRAMES frames (cycling over the input)
//       alone and prints "encode_ns t1 t2 …" and "decode_ns …".
//   opus lookahead RATE CHANNELS
//       Prints the VOIP encoder's OPUS_GET_LOOKAHEAD in samples.
#include <opus.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_PACKET = 4000, MAX_FRAME = 5760 };

static uint64_t now_nanoseconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (uint64_t)time.tv_sec * 1000000000u + (uint64_t)time.tv_nsec;
}

static void fail(const char *what, const char *detail) {
    fprintf(stderr, "opus peer: %s: %s\n", what, detail);
    exit(1);
}

static void check(int status, const char *call) {
    if (status < 0) fail(call, opus_strerror(status));
}

static OpusEncoder *make_encoder(int rate, int channels, int complexity, int bitrate) {
    int status;
    OpusEncoder *encoder = opus_encoder_create(rate, channels, OPUS_APPLICATION_VOIP, &status);
    check(status, "opus_encoder_create");
    check(opus_encoder_ctl(encoder, OPUS_SET_COMPLEXITY(complexity)), "OPUS_SET_COMPLEXITY");
    check(opus_encoder_ctl(encoder, OPUS_SET_BITRATE(bitrate)), "OPUS_SET_BITRATE");
    return encoder;
}

/// The input and, encoded from it at set-up, one packet per frame.
struct Workload {
    opus_int16 *pcm;
    long frames, step;
    int frame_samples, channels;
    unsigned char (*packets)[MAX_PACKET];
    int *packet_bytes;
};

static struct Workload load(const char *path, int rate, int channels, int frame, int complexity, int bitrate) {
    struct Workload work = {0};
    FILE *file = fopen(path, "rb");
    if (!file) fail(path, "cannot open");
    fseek(file, 0, SEEK_END);
    long bytes = ftell(file);
    fseek(file, 0, SEEK_SET);
    work.pcm = malloc(bytes > 0 ? bytes : 1);
    if (fread(work.pcm, 1, bytes, file) != (size_t)bytes) fail(path, "short read");
    fclose(file);
    work.frame_samples = frame;
    work.channels = channels;
    work.step = (long)frame * channels;
    work.frames = bytes / 2 / work.step;
    if (work.frames == 0) fail(path, "shorter than one frame");
    work.packets = malloc(sizeof *work.packets * work.frames);
    work.packet_bytes = malloc(sizeof(int) * work.frames);
    OpusEncoder *encoder = make_encoder(rate, channels, complexity, bitrate);
    for (long index = 0; index < work.frames; index++) {
        work.packet_bytes[index] = opus_encode(encoder, work.pcm + index * work.step, frame, work.packets[index], MAX_PACKET);
        check(work.packet_bytes[index], "opus_encode");
    }
    opus_encoder_destroy(encoder);
    return work;
}

static void encode_passes(OpusEncoder *encoder, const struct Workload *work, long passes) {
    unsigned char packet[MAX_PACKET];
    for (long pass = 0; pass < passes; pass++) {
        check(opus_encoder_ctl(encoder, OPUS_RESET_STATE), "OPUS_RESET_STATE");
        for (long frame = 0; frame < work->frames; frame++) {
            int bytes = opus_encode(encoder, work->pcm + frame * work->step, work->frame_samples, packet, MAX_PACKET);
            check(bytes, "opus_encode");
            __asm__ volatile("" : : "r"(packet) : "memory");
        }
    }
}

static void decode_passes(OpusDecoder *decoder, const struct Workload *work, long passes) {
    opus_int16 pcm[MAX_FRAME * 2];
    for (long pass = 0; pass < passes; pass++) {
        check(opus_decoder_ctl(decoder, OPUS_RESET_STATE), "OPUS_RESET_STATE");
        for (long frame = 0; frame < work->frames; frame++) {
            int samples = opus_decode(decoder, work->packets[frame], work->packet_bytes[frame], pcm, MAX_FRAME, 0);
            check(samples, "opus_decode");
            __asm__ volatile("" : : "r"(pcm) : "memory");
        }
    }
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("%s (C)\n", opus_get_version_string());
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "lookahead") == 0) {
        OpusEncoder *encoder = make_encoder(atoi(argv[2]), atoi(argv[3]), 5, OPUS_AUTO);
        opus_int32 lookahead;
        check(opus_encoder_ctl(encoder, OPUS_GET_LOOKAHEAD(&lookahead)), "OPUS_GET_LOOKAHEAD");
        printf("%d\n", lookahead);
        return 0;
    }
    if (argc != 9) {
        fprintf(stderr, "usage: opus encode|decode|frame-times COUNT INPUT RATE CHANNELS FRAME COMPLEXITY BITRATE\n"
                        "       opus lookahead RATE CHANNELS | opus --version\n");
        return 2;
    }
    long count = atol(argv[2]);
    int rate = atoi(argv[4]), channels = atoi(argv[5]), frame = atoi(argv[6]);
    int complexity = atoi(argv[7]), bitrate = atoi(argv[8]);
    if (count <= 0) fail("COUNT", "must be a positive integer");
    struct Workload work = load(argv[3], rate, channels, frame, complexity, bitrate);
    OpusEncoder *encoder = make_encoder(rate, channels, complexity, bitrate);
    int status;
    OpusDecoder *decoder = opus_decoder_create(rate, channels, &status);
    check(status, "opus_decoder_create");

    if (strcmp(argv[1], "encode") == 0 || strcmp(argv[1], "decode") == 0) {
        int encoding = argv[1][0] == 'e';
        long warm_up = count / 10 + 1;
        if (encoding) encode_passes(encoder, &work, warm_up); else decode_passes(decoder, &work, warm_up);
        uint64_t start = now_nanoseconds();
        if (encoding) encode_passes(encoder, &work, count); else decode_passes(decoder, &work, count);
        printf("%llu\n", (unsigned long long)(now_nanoseconds() - start));
        return 0;
    }
    if (strcmp(argv[1], "frame-times") == 0) {
        uint64_t *encode_ns = malloc(sizeof(uint64_t) * count), *decode_ns = malloc(sizeof(uint64_t) * count);
        unsigned char packet[MAX_PACKET];
        opus_int16 pcm[MAX_FRAME * 2];
        for (long iteration = 0; iteration < count; iteration++) {
            long index = iteration % work.frames;
            uint64_t start = now_nanoseconds();
            int bytes = opus_encode(encoder, work.pcm + index * work.step, frame, packet, MAX_PACKET);
            uint64_t middle = now_nanoseconds();
            check(bytes, "opus_encode");
            check(opus_decode(decoder, packet, bytes, pcm, MAX_FRAME, 0), "opus_decode");
            encode_ns[iteration] = middle - start;
            decode_ns[iteration] = now_nanoseconds() - middle;
        }
        printf("encode_ns");
        for (long index = 0; index < count; index++) printf(" %llu", (unsigned long long)encode_ns[index]);
        printf("\ndecode_ns");
        for (long index = 0; index < count; index++) printf(" %llu", (unsigned long long)decode_ns[index]);
        printf("\n");
        return 0;
    }
    fprintf(stderr, "opus peer: unknown case '%s'\n", argv[1]);
    return 2;
}
