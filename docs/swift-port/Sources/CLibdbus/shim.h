#include <dbus/dbus.h>

// libdbus's type codes are macros with casts, which Swift does not import.
static const int PORT_TYPE_BOOLEAN = DBUS_TYPE_BOOLEAN;
static const int PORT_TYPE_UINT32 = DBUS_TYPE_UINT32;
static const int PORT_TYPE_STRING = DBUS_TYPE_STRING;
static const int PORT_TYPE_ARRAY = DBUS_TYPE_ARRAY;
static const int PORT_TYPE_VARIANT = DBUS_TYPE_VARIANT;
static const int PORT_TYPE_DICT_ENTRY = DBUS_TYPE_DICT_ENTRY;
static const int PORT_MESSAGE_TYPE_METHOD_CALL = DBUS_MESSAGE_TYPE_METHOD_CALL;
static const int PORT_MESSAGE_TYPE_SIGNAL = DBUS_MESSAGE_TYPE_SIGNAL;
static const unsigned int PORT_NAME_FLAG_DO_NOT_QUEUE = DBUS_NAME_FLAG_DO_NOT_QUEUE;
static const int PORT_REQUEST_NAME_REPLY_PRIMARY_OWNER = DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER;
