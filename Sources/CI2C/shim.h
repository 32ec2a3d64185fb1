// i2c-dev's ioctls and structures, and libi2c's SMBus calls (Debian: libi2c-dev).
#include <linux/types.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <i2c/smbus.h>
