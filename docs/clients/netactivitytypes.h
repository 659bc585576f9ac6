// The records of org.example.NetworkActivity for QtDBus: the types that the interface XML's
// org.qtproject.QtDBus.QtTypeName annotations name, so that qdbusxml2cpp's proxy compiles. Call
// registerNetworkActivityTypes() once before using the proxy.
#pragma once

#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QVariantMap>
#include <QtDBus/QDBusArgument>
#include <QtDBus/QDBusMetaType>

// ListActivities' (usstt).
struct NetworkActivityRecord {
    uint id = 0;
    QString owner;
    QString label;
    qulonglong startedAt = 0;
    qulonglong deadline = 0;
};
using NetworkActivityRecordList = QList<NetworkActivityRecord>;

// GetActivities' and ActivitiesChanged's (ua{sv}): the id and the record's keys ("label", "app", "percent", ...).
struct NetworkActivityDetails {
    uint id = 0;
    QVariantMap values;
};
using NetworkActivityDetailsList = QList<NetworkActivityDetails>;

Q_DECLARE_METATYPE(NetworkActivityRecord)
Q_DECLARE_METATYPE(NetworkActivityDetails)

inline QDBusArgument &operator<<(QDBusArgument &argument, const NetworkActivityRecord &record) {
    argument.beginStructure();
    argument << record.id << record.owner << record.label << record.startedAt << record.deadline;
    argument.endStructure();
    return argument;
}

inline const QDBusArgument &operator>>(const QDBusArgument &argument, NetworkActivityRecord &record) {
    argument.beginStructure();
    argument >> record.id >> record.owner >> record.label >> record.startedAt >> record.deadline;
    argument.endStructure();
    return argument;
}

inline QDBusArgument &operator<<(QDBusArgument &argument, const NetworkActivityDetails &details) {
    argument.beginStructure();
    argument << details.id << details.values;
    argument.endStructure();
    return argument;
}

inline const QDBusArgument &operator>>(const QDBusArgument &argument, NetworkActivityDetails &details) {
    argument.beginStructure();
    argument >> details.id >> details.values;
    argument.endStructure();
    return argument;
}

inline void registerNetworkActivityTypes() {
    qDBusRegisterMetaType<NetworkActivityRecord>();
    qDBusRegisterMetaType<NetworkActivityRecordList>();
    qDBusRegisterMetaType<NetworkActivityDetails>();
    qDBusRegisterMetaType<NetworkActivityDetailsList>();
}
