// libmosquitto, the MQTT client library of the mosquitto broker's project.
#include <mosquitto.h>
