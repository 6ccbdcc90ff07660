// Shared by the C jitter-buffer peers: the command line, the network trace CSV, the pull clock and
// the output lines of the protocol in JITTER-PEERS.md. Header-only so each peer stays one
// `cc peer.c` (the harness builds a single source file).
#ifndef JITTER_TRACE_H
#define JITTER_TRACE_H

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Pulls continue this long after the last arrival, so every peer can drain what it holds.
#define JT_TAIL_MS 2000.0
// The longest trace accepted, first to last arrival (a day), which bounds the number of pulls.
#define JT_MAX_SPAN_MS 86400000.0

// One row of the trace: a sent packet, or a duplicate of one.
typedef struct {
    int64_t seq;             // unwrapped sequence number
    int64_t rtp_ts;          // unwrapped RTP timestamp
    double send_ms;
    double arrival_ms;       // meaningful only when `arrived`
    int arrived;             // 0: lost (empty arrival_ms)
    uint32_t payload_bytes;
} jt_packet;

// The whole trace, plus the arrived rows in arrival order (ties keep file order).
typedef struct {
    jt_packet *packets;
    size_t count;
    size_t *arrival_order;   // indexes into packets, arrived rows only
    size_t arrived_count;
    uint32_t max_payload_bytes;
} jt_trace;

// `PROGRAM jitter TRACE.csv FRAME_MS CLOCK_RATE KNOB`, parsed.
typedef struct {
    const char *trace_path;
    double frame_ms;
    uint32_t clock_rate;
    int knob_is_default;
    double knob;             // meaningful only when !knob_is_default
} jt_arguments;

// The pull clock: tick k happens at first_ms + k * frame_ms, for k < count.
typedef struct {
    double first_ms;
    double frame_ms;
    size_t count;
} jt_ticks;

static inline void jt_fail(const char *program, const char *message, const char *detail) {
    fprintf(stderr, "%s: %s%s%s\n", program, message, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

// Parses the command line; `--version` is left to the caller (argc == 2).
static inline jt_arguments jt_parse_arguments(const char *program, int argc, char **argv) {
    if (argc != 6 || strcmp(argv[1], "jitter") != 0) {
        jt_fail(program, "usage: jitter TRACE.csv FRAME_MS CLOCK_RATE KNOB|default (or --version)", NULL);
    }
    jt_arguments arguments = {.trace_path = argv[2]};
    char *end = NULL;
    arguments.frame_ms = strtod(argv[3], &end);
    if (*end != '\0' || !(arguments.frame_ms >= 1.0 && arguments.frame_ms <= 1000.0)) {
        jt_fail(program, "FRAME_MS must be a number of milliseconds in 1…1000", argv[3]);
    }
    long rate = strtol(argv[4], &end, 10);
    if (*end != '\0' || rate < 1000 || rate > 192000) {
        jt_fail(program, "CLOCK_RATE must be an integer in 1000…192000", argv[4]);
    }
    arguments.clock_rate = (uint32_t)rate;
    arguments.knob_is_default = strcmp(argv[5], "default") == 0;
    if (!arguments.knob_is_default) {
        arguments.knob = strtod(argv[5], &end);
        if (*end != '\0' || !(arguments.knob >= 0.0 && arguments.knob <= 100000.0)) {
            jt_fail(program, "KNOB must be 'default' or a number in 0…100000", argv[5]);
        }
    }
    return arguments;
}

// The frame length in RTP timestamp units (every packet carries one frame).
static inline uint32_t jt_frame_units(const jt_arguments *arguments) {
    return (uint32_t)lround(arguments->frame_ms * arguments->clock_rate / 1000.0);
}

// Parses a decimal field that must fill [start, end); 0 on success.
static inline int jt_parse_int(const char *start, const char *end, int64_t *value) {
    if (start == end) return -1;
    char *stop = NULL;
    errno = 0;
    long long parsed = strtoll(start, &stop, 10);
    if (stop != end || errno != 0) return -1;
    *value = parsed;
    return 0;
}

static inline int jt_parse_double(const char *start, const char *end, double *value) {
    if (start == end) return -1;
    char *stop = NULL;
    double parsed = strtod(start, &stop);
    if (stop != end || !isfinite(parsed)) return -1;
    *value = parsed;
    return 0;
}

// Parses one data row into `packet`; 0 on success.
static inline int jt_parse_row(char *line, jt_packet *packet) {
    const char *fields[5];
    const char *ends[5];
    char *cursor = line;
    for (int index = 0; index < 5; index++) {
        fields[index] = cursor;
        char *comma = strchr(cursor, index < 4 ? ',' : '\0');
        if (comma == NULL) return -1;
        ends[index] = comma;
        cursor = comma + 1;
    }
    int64_t payload = 0;
    if (jt_parse_int(fields[0], ends[0], &packet->seq) != 0) return -1;
    if (jt_parse_int(fields[1], ends[1], &packet->rtp_ts) != 0) return -1;
    if (jt_parse_double(fields[2], ends[2], &packet->send_ms) != 0) return -1;
    packet->arrived = fields[3] != ends[3];
    if (packet->arrived && jt_parse_double(fields[3], ends[3], &packet->arrival_ms) != 0) return -1;
    if (jt_parse_int(fields[4], ends[4], &payload) != 0 || payload < 0 || payload > 65535) return -1;
    packet->payload_bytes = (uint32_t)payload;
    return 0;
}

static const jt_packet *jt_sort_packets;

// Orders arrival indexes by arrival time, then by position in the file (a stable order).
static inline int jt_compare_arrival(const void *left, const void *right) {
    size_t a = *(const size_t *)left, b = *(const size_t *)right;
    double ta = jt_sort_packets[a].arrival_ms, tb = jt_sort_packets[b].arrival_ms;
    if (ta != tb) return ta < tb ? -1 : 1;
    return a < b ? -1 : (a > b);
}

// Reads the trace CSV of DESIGN.md; exits with a message naming the line on any malformed input.
static inline jt_trace jt_read_trace(const char *program, const char *path) {
    FILE *file = fopen(path, "r");
    if (file == NULL) jt_fail(program, "cannot open trace", path);
    jt_trace trace = {0};
    size_t capacity = 0;
    char line[512];
    size_t line_number = 0;
    while (fgets(line, sizeof line, file) != NULL) {
        line_number++;
        size_t length = strlen(line);
        if (length == sizeof line - 1 && line[length - 1] != '\n') {
            fprintf(stderr, "%s: %s line %zu is too long\n", program, path, line_number);
            exit(2);
        }
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = '\0';
        if (line_number == 1) {
            if (strcmp(line, "seq,rtp_ts,send_ms,arrival_ms,payload_bytes") != 0) {
                jt_fail(program, "trace header must be seq,rtp_ts,send_ms,arrival_ms,payload_bytes", line);
            }
            continue;
        }
        if (length == 0) continue;
        if (trace.count == capacity) {
            capacity = capacity ? capacity * 2 : 4096;
            trace.packets = realloc(trace.packets, capacity * sizeof *trace.packets);
            if (trace.packets == NULL) jt_fail(program, "out of memory", NULL);
        }
        jt_packet *packet = &trace.packets[trace.count];
        if (jt_parse_row(line, packet) != 0) {
            fprintf(stderr, "%s: %s line %zu is not seq,rtp_ts,send_ms,arrival_ms,payload_bytes: %s\n",
                    program, path, line_number, line);
            exit(2);
        }
        if (packet->payload_bytes > trace.max_payload_bytes) trace.max_payload_bytes = packet->payload_bytes;
        trace.arrived_count += packet->arrived ? 1 : 0;
        trace.count++;
    }
    fclose(file);
    if (line_number == 0) jt_fail(program, "trace is empty", path);
    if (trace.arrived_count == 0) jt_fail(program, "no packet of the trace arrives", path);
    trace.arrival_order = malloc(trace.arrived_count * sizeof *trace.arrival_order);
    if (trace.arrival_order == NULL) jt_fail(program, "out of memory", NULL);
    size_t next = 0;
    for (size_t index = 0; index < trace.count; index++) {
        if (trace.packets[index].arrived) trace.arrival_order[next++] = index;
    }
    jt_sort_packets = trace.packets;
    qsort(trace.arrival_order, trace.arrived_count, sizeof *trace.arrival_order, jt_compare_arrival);
    return trace;
}

static inline void jt_free_trace(jt_trace *trace) {
    free(trace->packets);
    free(trace->arrival_order);
}

// The arrival-ordered packet at `position` (position < arrived_count).
static inline const jt_packet *jt_arrival(const jt_trace *trace, size_t position) {
    return &trace->packets[trace->arrival_order[position]];
}

// Ticks from the first arrival up to the last arrival plus JT_TAIL_MS.
static inline jt_ticks jt_make_ticks(const char *program, const jt_trace *trace, double frame_ms) {
    double first = jt_arrival(trace, 0)->arrival_ms;
    double last = jt_arrival(trace, trace->arrived_count - 1)->arrival_ms;
    if (last - first > JT_MAX_SPAN_MS) jt_fail(program, "the trace's arrivals span more than a day", NULL);
    jt_ticks ticks = {.first_ms = first, .frame_ms = frame_ms};
    ticks.count = (size_t)floor((last + JT_TAIL_MS - first) / frame_ms) + 1;
    return ticks;
}

static inline double jt_tick_ms(const jt_ticks *ticks, size_t tick) {
    return ticks->first_ms + (double)tick * ticks->frame_ms;
}

// The header lines: the peer's name and version, then the knob it really ran with.
static inline void jt_print_header(const char *name_and_version, const char *knob_name, double knob, const char *unit) {
    static char output_buffer[1 << 16];
    setvbuf(stdout, output_buffer, _IOFBF, sizeof output_buffer);
    printf("%s\nknob,%s,%g,%s\n", name_and_version, knob_name, knob, unit);
}

// A pull that played the packet with unwrapped sequence number `seq`.
static inline void jt_print_played(double pull_ms, int64_t seq) {
    printf("%.3f,%lld\n", pull_ms, (long long)seq);
}

// A pull where a frame was due but the peer had none (lost, late, or the buffer ran dry).
static inline void jt_print_missing(double pull_ms) {
    printf("%.3f,-\n", pull_ms);
}

// A pull where the peer deliberately played nothing to build up its buffer.
static inline void jt_print_buffering(double pull_ms) {
    printf("%.3f,buffering\n", pull_ms);
}

#endif
