// Jitter-buffer peer: speexdsp's adaptive jitter buffer (<speex/speex_jitter.h>), driven by the
// protocol of JITTER-PEERS.md. KNOB = JITTER_BUFFER_SET_MAX_LATE_RATE in percent.
//
// Usage as documented for the library: packets are put as they arrive; each FRAME_MS the
// application asks for one frame with jitter_buffer_get(desired span = one frame), then calls
// jitter_buffer_tick. The application keeps no audio of its own between ticks (it consumes the
// whole frame it gets), so jitter_buffer_remaining_span is never needed (it would be 0).
#include <speex/speex_jitter.h>

#include "jitter-trace.h"

static const char *program = "jitter-speexdsp";

// speexdsp's headers carry no version; ask pkg-config, which found the library for the build.
static void peer_name(char *name, size_t size) {
    char version[64] = "unknown";
    FILE *query = popen("pkg-config --modversion speexdsp 2>/dev/null", "r");
    if (query != NULL) {
        if (fgets(version, sizeof version, query) != NULL) version[strcspn(version, "\r\n")] = '\0';
        pclose(query);
    }
    snprintf(name, size, "speexdsp %s jitter buffer", version);
}

int main(int argc, char **argv) {
    char name[128];
    peer_name(name, sizeof name);
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        puts(name);
        return 0;
    }
    jt_arguments arguments = jt_parse_arguments(program, argc, argv);
    jt_trace trace = jt_read_trace(program, arguments.trace_path);
    uint32_t frame_units = jt_frame_units(&arguments);

    JitterBuffer *buffer = jitter_buffer_init((int)frame_units);
    if (buffer == NULL) jt_fail(program, "jitter_buffer_init failed", NULL);
    spx_int32_t max_late_rate = 0;
    if (!arguments.knob_is_default) {
        max_late_rate = (spx_int32_t)lround(arguments.knob);
        jitter_buffer_ctl(buffer, JITTER_BUFFER_SET_MAX_LATE_RATE, &max_late_rate);
    }
    jitter_buffer_ctl(buffer, JITTER_BUFFER_GET_MAX_LATE_RATE, &max_late_rate);
    jt_print_header(name, "max_late_rate", max_late_rate, "percent");

    // The library copies packet data on put and back on get; the content does not matter, the
    // row index travels in user_data.
    size_t capacity = trace.max_payload_bytes > 0 ? trace.max_payload_bytes : 1;
    char *payload = calloc(capacity, 1);
    char *played = calloc(capacity, 1);
    if (payload == NULL || played == NULL) jt_fail(program, "out of memory", NULL);

    jt_ticks ticks = jt_make_ticks(program, &trace, arguments.frame_ms);
    size_t next_arrival = 0;
    for (size_t tick = 0; tick < ticks.count; tick++) {
        double now = jt_tick_ms(&ticks, tick);
        for (; next_arrival < trace.arrived_count && jt_arrival(&trace, next_arrival)->arrival_ms <= now;
             next_arrival++) {
            size_t row = trace.arrival_order[next_arrival];
            const jt_packet *packet = &trace.packets[row];
            JitterBufferPacket put = {
                .data = payload,
                .len = packet->payload_bytes,
                .timestamp = (spx_uint32_t)packet->rtp_ts,  // wrapped to 32 bits, as on the wire
                .span = frame_units,
                .sequence = (spx_uint16_t)packet->seq,
                .user_data = (spx_uint32_t)row,
            };
            jitter_buffer_put(buffer, &put);
        }
        JitterBufferPacket got = {.data = played, .len = (spx_uint32_t)capacity};
        spx_int32_t start_offset = 0;
        int status = jitter_buffer_get(buffer, &got, (spx_int32_t)frame_units, &start_offset);
        if (status == JITTER_BUFFER_OK && got.user_data < trace.count) {
            jt_print_played(now, trace.packets[got.user_data].seq);
        } else if (status == JITTER_BUFFER_INSERTION) {
            jt_print_buffering(now);
        } else {
            jt_print_missing(now);
        }
        jitter_buffer_tick(buffer);
    }
    jitter_buffer_destroy(buffer);
    free(payload);
    free(played);
    jt_free_trace(&trace);
    return 0;
}
