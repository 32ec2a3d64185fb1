// libgpiod's own header, whichever generation pkg-config finds. Swift never imports this:
// CGPIODShim includes it and offers one interface over both generations.
#include <gpiod.h>
