// libmosquitto (Debian's libmosquitto-dev), for ambience-mqtt only: the daemon links no network library.
#include <mosquitto.h>
