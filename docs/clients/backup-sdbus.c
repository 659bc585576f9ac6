/* A backup that shows on the network indicator: C with systemd's sd-bus.
 *
 *   cc backup-sdbus.c $(pkg-config --cflags --libs libsystemd) -o backup-sdbus
 *
 * Usage: backup-sdbus STEPS. Each step moves 1 MB and takes 50 ms; a cancel request from the panel stops it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#define SERVICE "org.example.NetworkActivity"
#define PATH "/org/example/NetworkActivity"
#define CHUNK 1000000
#define STEP_USEC 50000

static sd_bus *bus;
static uint32_t activity; /* 0: not shown */
static unsigned steps, done;
static int cancelled;

static int on_cancel_requested(sd_bus_message *message, void *data, sd_bus_error *error) {
    uint32_t id;
    if (sd_bus_message_read(message, "u", &id) >= 0 && id == activity)
        cancelled = 1;
    return 0;
}

static int step(sd_event_source *timer, uint64_t now, void *data) {
    if (!cancelled) {
        done++;
        if (activity)
            sd_bus_call_method(bus, SERVICE, PATH, SERVICE, "SetTransfer", NULL, NULL, "utt", activity,
                               (uint64_t)done * CHUNK, (uint64_t)steps * CHUNK);
        if (done < steps) {
            sd_event_source_set_time_relative(timer, STEP_USEC);
            return sd_event_source_set_enabled(timer, SD_EVENT_ONESHOT);
        }
    }
    if (activity)
        sd_bus_call_method(bus, SERVICE, PATH, SERVICE, "End", NULL, NULL, "u", activity);
    puts(cancelled ? "cancelled" : "done");
    return sd_event_exit(sd_event_source_get_event(timer), 0);
}

/* Begins the activity and says it can be stopped; returns a negative errno or 0. */
static int begin(sd_bus_error *error) {
    sd_bus_message *reply = NULL;
    int r = sd_bus_call_method(bus, SERVICE, PATH, SERVICE, "Begin", error, &reply, "s", "backup");
    if (r < 0)
        return r;
    r = sd_bus_message_read(reply, "u", &activity);
    sd_bus_message_unref(reply);
    if (r < 0)
        return r;
    /* CancelRequested is sent to this connection alone; the match only routes it to the handler. */
    r = sd_bus_match_signal(bus, NULL, SERVICE, PATH, SERVICE, "CancelRequested", on_cancel_requested, NULL);
    if (r < 0)
        return r;
    return sd_bus_call_method(bus, SERVICE, PATH, SERVICE, "SetCancellable", error, NULL, "ub", activity, 1);
}

int main(int argc, char **argv) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_event *event = NULL;
    steps = argc > 1 ? (unsigned)atoi(argv[1]) : 10;

    int r = sd_bus_open_user(&bus);
    if (r >= 0)
        r = begin(&error);
    if (r < 0) {
        /* The indicator is a nicety: without the service, the backup goes on unseen. */
        fprintf(stderr, "backup: the network indicator will not show it: %s\n",
                sd_bus_error_is_set(&error) ? error.message : "no session bus");
        activity = 0;
    }
    sd_bus_error_free(&error);

    sd_event_default(&event);
    if (bus)
        sd_bus_attach_event(bus, event, SD_EVENT_PRIORITY_NORMAL);
    sd_event_add_time_relative(event, NULL, CLOCK_MONOTONIC, STEP_USEC, 0, step, NULL);
    r = sd_event_loop(event);
    sd_bus_flush_close_unref(bus);
    sd_event_unref(event);
    return r < 0 ? 1 : 0;
}
