// Jitter-buffer peer: GStreamer's rtpjitterbuffer (gst-plugins-good) in a GstHarness with its
// test clock, driven by the protocol of JITTER-PEERS.md. KNOB = the `latency` property in ms.
//
// rtpjitterbuffer pushes; a GStreamer audio sink plays each buffer at running time PTS + latency.
// The mapping to pull ticks (documented in JITTER-PEERS.md, "GStreamer"):
//   - the test clock is the receiver's clock, 0 at the first arrival; each packet is pushed as a
//     real RTP buffer (12-byte header + payload) with DTS = its arrival time, the clock set to it;
//   - before every arrival and tick, the clock advances through every timer the element is
//     waiting on (lost timers, the first packet's deadline) in time order, and the element is
//     left to finish its work (all its threads blocked) before anything else happens;
//   - a buffer leaving the element is due at PTS + latency; the tick nearest that time plays it,
//     or the first tick after it left when it left later than that (a sink plays nothing from
//     the past: a buffer whose tick has gone by is dropped). Ticks before the first buffer plays
//     are `buffering`, ticks after it with no buffer are `-` (lost events included).
#define _GNU_SOURCE
#include <dirent.h>
#include <gst/check/gstharness.h>
#include <gst/gst.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "jitter-trace.h"

static const char *program = "jitter-gstreamer";

// A buffer that left the jitter buffer, waiting for its tick.
typedef struct {
    int64_t seq;
    GstClockTime due;   // PTS + latency, receiver running time
} departed;

typedef struct {
    departed *items;
    size_t head, count, capacity;
} departure_queue;

static void queue_push(departure_queue *queue, departed item) {
    if (queue->head + queue->count == queue->capacity) {
        if (queue->head > 0) {
            memmove(queue->items, queue->items + queue->head, queue->count * sizeof *queue->items);
            queue->head = 0;
        } else {
            queue->capacity = queue->capacity ? queue->capacity * 2 : 256;
            queue->items = realloc(queue->items, queue->capacity * sizeof *queue->items);
            if (queue->items == NULL) jt_fail(program, "out of memory", NULL);
        }
    }
    queue->items[queue->head + queue->count++] = item;
}

// True when every thread but this one is asleep. With a test clock nothing wakes a sleeping
// streaming thread but us (a new buffer, a released clock wait), so then the element has done
// all it can at the current clock time.
static int other_threads_asleep(void) {
    pid_t self = (pid_t)syscall(SYS_gettid);
    DIR *tasks = opendir("/proc/self/task");
    if (tasks == NULL) jt_fail(program, "cannot list /proc/self/task", NULL);
    int asleep = 1;
    struct dirent *entry;
    while (asleep && (entry = readdir(tasks)) != NULL) {
        if (entry->d_name[0] == '.' || atoi(entry->d_name) == self) continue;
        char path[300], stat[512];
        snprintf(path, sizeof path, "/proc/self/task/%s/stat", entry->d_name);
        FILE *file = fopen(path, "r");
        if (file == NULL) continue;  // the thread just exited
        size_t length = fread(stat, 1, sizeof stat - 1, file);
        fclose(file);
        stat[length] = '\0';
        const char *state = strrchr(stat, ')');
        asleep = state == NULL || (state[1] == ' ' && state[2] != 'R' && state[2] != 'D');
    }
    closedir(tasks);
    return asleep;
}

static void settle(void) {
    while (!other_threads_asleep()) sched_yield();
}

typedef struct {
    GstHarness *harness;
    GstTestClock *clock;
    const jt_trace *trace;
    GstClockTime latency;
    departure_queue departures;
} peer;

// Collects what left the element: buffers join the departure queue, events (lost packets,
// segment, caps) are dropped: a tick without a buffer is `-` whatever the reason.
static void collect_output(peer *state) {
    GstBuffer *buffer;
    while ((buffer = gst_harness_try_pull(state->harness)) != NULL) {
        uint32_t row = UINT32_MAX;
        if (gst_buffer_get_size(buffer) >= 16) gst_buffer_extract(buffer, 12, &row, sizeof row);
        if (row < state->trace->count && GST_BUFFER_PTS_IS_VALID(buffer)) {
            departed item = {.seq = state->trace->packets[row].seq, .due = GST_BUFFER_PTS(buffer) + state->latency};
            queue_push(&state->departures, item);
        }
        gst_buffer_unref(buffer);
    }
    GstEvent *event;
    while ((event = gst_harness_try_pull_event(state->harness)) != NULL) gst_event_unref(event);
}

// Moves the clock to `time`, firing every timer due by then in order.
static void advance_to(peer *state, GstClockTime time) {
    for (;;) {
        settle();
        collect_output(state);
        GstClockTime next = gst_test_clock_get_next_entry_time(state->clock);
        if (!GST_CLOCK_TIME_IS_VALID(next) || next > time) break;
        gst_test_clock_crank(state->clock);  // moves the clock to the timer (if ahead) and fires it
    }
    if (gst_clock_get_time(GST_CLOCK(state->clock)) < time) gst_test_clock_set_time(state->clock, time);
}

// The receiver's running time at trace time `ms`: 0 at the first arrival.
static GstClockTime running_time(const jt_ticks *ticks, double ms) {
    return (GstClockTime)llround((ms - ticks->first_ms) * GST_MSECOND);
}

// A real RTP packet: version 2, PCMU, the wrapped sequence number and timestamp, and the row
// index in the first payload bytes so the output can be traced back to the unwrapped seq.
static GstBuffer *rtp_packet(const jt_trace *trace, size_t row, int marker) {
    const jt_packet *packet = &trace->packets[row];
    size_t payload = packet->payload_bytes < 4 ? 4 : packet->payload_bytes;
    GstBuffer *buffer = gst_buffer_new_allocate(NULL, 12 + payload, NULL);
    GstMapInfo map;
    if (buffer == NULL || !gst_buffer_map(buffer, &map, GST_MAP_WRITE)) jt_fail(program, "out of memory", NULL);
    uint16_t seq = (uint16_t)packet->seq;
    uint32_t ts = (uint32_t)packet->rtp_ts;
    uint32_t index = (uint32_t)row;
    memset(map.data, 0xFF, map.size);  // PCMU silence
    map.data[0] = 0x80;
    map.data[1] = marker ? 0x80 : 0x00;  // payload type 0
    map.data[2] = (uint8_t)(seq >> 8);
    map.data[3] = (uint8_t)seq;
    for (int byte = 0; byte < 4; byte++) map.data[4 + byte] = (uint8_t)(ts >> (24 - 8 * byte));
    memcpy(map.data + 8, "\x12\x34\x56\x78", 4);  // SSRC
    memcpy(map.data + 12, &index, sizeof index);
    gst_buffer_unmap(buffer, &map);
    return buffer;
}

int main(int argc, char **argv) {
    gst_init(NULL, NULL);
    char name[128];
    guint major, minor, micro, nano;
    gst_version(&major, &minor, &micro, &nano);
    snprintf(name, sizeof name, "gstreamer %u.%u.%u rtpjitterbuffer", major, minor, micro);
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        puts(name);
        return 0;
    }
    jt_arguments arguments = jt_parse_arguments(program, argc, argv);
    jt_trace trace = jt_read_trace(program, arguments.trace_path);

    GstHarness *harness = gst_harness_new("rtpjitterbuffer");
    if (harness == NULL || harness->element == NULL) jt_fail(program, "no rtpjitterbuffer (gstreamer1.0-plugins-good)", NULL);
    gst_harness_use_testclock(harness);
    g_object_set(harness->element, "do-lost", TRUE, NULL);
    if (!arguments.knob_is_default) g_object_set(harness->element, "latency", (guint)lround(arguments.knob), NULL);
    guint latency_ms = 0;
    g_object_get(harness->element, "latency", &latency_ms, NULL);
    char caps[160];
    snprintf(caps, sizeof caps, "application/x-rtp,media=audio,clock-rate=%u,encoding-name=PCMU,payload=0",
             arguments.clock_rate);
    gst_harness_set_src_caps_str(harness, caps);
    gst_harness_play(harness);
    jt_print_header(name, "latency", latency_ms, "ms");

    peer state = {
        .harness = harness,
        .clock = gst_harness_get_testclock(harness),
        .trace = &trace,
        .latency = (GstClockTime)latency_ms * GST_MSECOND,
    };
    jt_ticks ticks = jt_make_ticks(program, &trace, arguments.frame_ms);
    GstClockTime frame = (GstClockTime)llround(arguments.frame_ms * GST_MSECOND);
    size_t next_arrival = 0;
    int started = 0;
    for (size_t tick = 0; tick < ticks.count; tick++) {
        double now_ms = jt_tick_ms(&ticks, tick);
        GstClockTime now = running_time(&ticks, now_ms);
        for (; next_arrival < trace.arrived_count && jt_arrival(&trace, next_arrival)->arrival_ms <= now_ms;
             next_arrival++) {
            GstClockTime arrival = running_time(&ticks, jt_arrival(&trace, next_arrival)->arrival_ms);
            advance_to(&state, arrival);
            GstBuffer *buffer = rtp_packet(&trace, trace.arrival_order[next_arrival], next_arrival == 0);
            GST_BUFFER_DTS(buffer) = arrival;
            if (gst_harness_push(harness, buffer) != GST_FLOW_OK) jt_fail(program, "push refused", NULL);
        }
        advance_to(&state, now);
        settle();
        collect_output(&state);
        // Drop buffers whose tick has gone by, then play the one due at this tick.
        departure_queue *queue = &state.departures;
        while (queue->count > 0 && queue->items[queue->head].due + frame / 2 < now) {
            queue->head++;
            queue->count--;
        }
        if (queue->count > 0 && queue->items[queue->head].due <= now + frame / 2) {
            jt_print_played(now_ms, queue->items[queue->head].seq);
            queue->head++;
            queue->count--;
            started = 1;
        } else if (started) {
            jt_print_missing(now_ms);
        } else {
            jt_print_buffering(now_ms);
        }
    }
    fflush(stdout);
    gst_object_unref(state.clock);
    gst_harness_teardown(harness);
    free(state.departures.items);
    jt_free_trace(&trace);
    return 0;
}
