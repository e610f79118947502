// libmosquitto, the MQTT client library of the mosquitto broker's project, loaded when a fleet
// first needs it (dlopen) rather than linked: linked, it and OpenSSL behind it would be loaded by
// every camctl start, for the commands that join or drive a fleet.
#ifndef CAMCTL_CMOSQUITTO_SHIM_H
#define CAMCTL_CMOSQUITTO_SHIM_H
#include <dlfcn.h>
#include <mosquitto.h>

// The functions camctl calls, from the loaded library.
typedef struct {
    int (*lib_init)(void);
    struct mosquitto *(*client_new)(const char *id, bool clean_session, void *context);
    void (*destroy)(struct mosquitto *client);
    int (*will_set)(struct mosquitto *client, const char *topic, int length, const void *payload, int qos, bool retain);
    int (*username_pw_set)(struct mosquitto *client, const char *username, const char *password);
    int (*tls_set)(struct mosquitto *client, const char *cafile, const char *capath, const char *certfile,
                   const char *keyfile, int (*password_callback)(char *buffer, int size, int rwflag, void *userdata));
    void (*connect_callback_set)(struct mosquitto *client, void (*on_connect)(struct mosquitto *, void *, int));
    void (*disconnect_callback_set)(struct mosquitto *client, void (*on_disconnect)(struct mosquitto *, void *, int));
    void (*message_callback_set)(struct mosquitto *client,
                                 void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *));
    int (*threaded_set)(struct mosquitto *client, bool threaded);
    int (*connect_async)(struct mosquitto *client, const char *host, int port, int keepalive);
    int (*loop)(struct mosquitto *client, int timeout, int max_packets);
    int (*subscribe)(struct mosquitto *client, int *mid, const char *filter, int qos);
    int (*publish)(struct mosquitto *client, int *mid, const char *topic, int length, const void *payload, int qos, bool retain);
    int (*disconnect)(struct mosquitto *client);
    const char *(*strerror)(int code);
    const char *(*connack_string)(int code);
} camctl_mosquitto;

// Loads libmosquitto and finds its functions; 0 when it is not installed or lacks one.
static inline int camctl_mosquitto_load(camctl_mosquitto *api) {
    void *library = dlopen("libmosquitto.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
#define CAMCTL_FIND(field, name) *(void **)(&api->field) = dlsym(library, name); if (!api->field) return 0
    CAMCTL_FIND(lib_init, "mosquitto_lib_init");
    CAMCTL_FIND(client_new, "mosquitto_new");
    CAMCTL_FIND(destroy, "mosquitto_destroy");
    CAMCTL_FIND(will_set, "mosquitto_will_set");
    CAMCTL_FIND(username_pw_set, "mosquitto_username_pw_set");
    CAMCTL_FIND(tls_set, "mosquitto_tls_set");
    CAMCTL_FIND(connect_callback_set, "mosquitto_connect_callback_set");
    CAMCTL_FIND(disconnect_callback_set, "mosquitto_disconnect_callback_set");
    CAMCTL_FIND(message_callback_set, "mosquitto_message_callback_set");
    CAMCTL_FIND(threaded_set, "mosquitto_threaded_set");
    CAMCTL_FIND(connect_async, "mosquitto_connect_async");
    CAMCTL_FIND(loop, "mosquitto_loop");
    CAMCTL_FIND(subscribe, "mosquitto_subscribe");
    CAMCTL_FIND(publish, "mosquitto_publish");
    CAMCTL_FIND(disconnect, "mosquitto_disconnect");
    CAMCTL_FIND(strerror, "mosquitto_strerror");
    CAMCTL_FIND(connack_string, "mosquitto_connack_string");
#undef CAMCTL_FIND
    return 1;
}
#endif
