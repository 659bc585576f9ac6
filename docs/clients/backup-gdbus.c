/* A backup that shows on the network indicator: C with GDBus, through the proxy that gdbus-codegen generates
 * from the installed interface XML:
 *
 *   gdbus-codegen --interface-prefix org.example. --c-namespace Na --generate-c-code netactivity-proxy \
 *       /usr/share/dbus-1/interfaces/org.example.NetworkActivity.xml
 *   cc backup-gdbus.c netactivity-proxy.c $(pkg-config --cflags --libs gio-2.0 gio-unix-2.0) -o backup-gdbus
 *
 * Usage: backup-gdbus STEPS. Each step moves 1 MB and takes 50 ms; a cancel request from the panel stops it. */
#include <stdio.h>
#include <stdlib.h>

#include "netactivity-proxy.h"

#define CHUNK 1000000

static NaNetworkActivity *service;
static guint activity; /* 0: not shown */
static guint steps, done;
static gboolean cancelled;
static GMainLoop *loop;

static void on_cancel_requested(NaNetworkActivity *proxy, guint id, gpointer data) {
    if (id == activity)
        cancelled = TRUE;
}

static gboolean step(gpointer data) {
    if (!cancelled) {
        done++;
        if (activity)
            na_network_activity_call_set_transfer_sync(service, activity, (guint64)done * CHUNK,
                                                       (guint64)steps * CHUNK, NULL, NULL);
        if (done < steps)
            return G_SOURCE_CONTINUE;
    }
    if (activity)
        na_network_activity_call_end_sync(service, activity, NULL, NULL);
    puts(cancelled ? "cancelled" : "done");
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
    GError *error = NULL;
    steps = argc > 1 ? (guint)atoi(argv[1]) : 10;
    service = na_network_activity_proxy_new_for_bus_sync(
        G_BUS_TYPE_SESSION, G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES | G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START,
        "org.example.NetworkActivity", "/org/example/NetworkActivity", NULL, &error);
    if (service && na_network_activity_call_begin_sync(service, "backup", &activity, NULL, &error)) {
        g_signal_connect(service, "cancel-requested", G_CALLBACK(on_cancel_requested), NULL);
        na_network_activity_call_set_cancellable_sync(service, activity, TRUE, NULL, NULL);
    } else {
        /* The indicator is a nicety: without the service, the backup goes on unseen. */
        g_printerr("backup: the network indicator will not show it: %s\n", error->message);
        g_clear_error(&error);
        activity = 0;
    }

    loop = g_main_loop_new(NULL, FALSE);
    g_timeout_add(50, step, NULL);
    g_main_loop_run(loop);
    g_main_loop_unref(loop);
    g_clear_object(&service);
    return 0;
}
