/* A backup that shows on the network indicator: C++ with Qt, through the proxy that qdbusxml2cpp generates from
 * the installed interface XML (the types its annotations name are in netactivitytypes.h):
 *
 *   qdbusxml2cpp -p netactivityproxy -i netactivitytypes.h \
 *       /usr/share/dbus-1/interfaces/org.example.NetworkActivity.xml org.example.NetworkActivity
 *   moc netactivityproxy.h -o moc_netactivityproxy.cpp
 *   g++ -fPIC backup-qt.cpp netactivityproxy.cpp moc_netactivityproxy.cpp $(pkg-config --cflags --libs Qt5DBus) \
 *       -o backup-qt
 *
 * Usage: backup-qt STEPS. Each step moves 1 MB and takes 50 ms; a cancel request from the panel stops it. */
#include <QtCore/QCoreApplication>
#include <QtCore/QTextStream>
#include <QtCore/QTimer>
#include <QtDBus/QDBusConnection>

#include "netactivityproxy.h"

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    registerNetworkActivityTypes();
    const qulonglong chunk = 1000000;
    const uint steps = argc > 1 ? QString(argv[1]).toUInt() : 10;
    uint done = 0;
    bool cancelled = false;

    org::example::NetworkActivity service(QStringLiteral("org.example.NetworkActivity"),
                                          QStringLiteral("/org/example/NetworkActivity"),
                                          QDBusConnection::sessionBus());
    QDBusReply<uint> begun = service.Begin(QStringLiteral("backup"));
    const uint activity = begun.isValid() ? begun.value() : 0;  // 0: not shown
    if (activity) {
        QObject::connect(&service, &org::example::NetworkActivity::CancelRequested, [&](uint id) {
            if (id == activity) cancelled = true;
        });
        service.SetCancellable(activity, true).waitForFinished();
    } else {
        // The indicator is a nicety: without the service, the backup goes on unseen.
        QTextStream(stderr) << "backup: the network indicator will not show it: " << begun.error().message() << "\n";
    }

    QTimer timer;
    QObject::connect(&timer, &QTimer::timeout, [&] {
        if (!cancelled) {
            done++;
            if (activity) service.SetTransfer(activity, done * chunk, steps * chunk);
            if (done < steps) return;
        }
        timer.stop();
        if (activity) service.End(activity).waitForFinished();
        QTextStream(stdout) << (cancelled ? "cancelled" : "done") << "\n";
        app.quit();
    });
    timer.start(50);
    return app.exec();
}
