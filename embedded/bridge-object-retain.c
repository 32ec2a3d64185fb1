// The compiler declares swift_bridgeObjectRetain as returning its argument, and may use what it
// returns in place of the argument. The embedded runtime's 64-bit version returns the object's
// address with the tag bits cleared instead: a String whose storage went through it loses the
// discriminator bits of its second word, and the next use reads a small string's bytes as a
// pointer (on arm64 a sensor's first I2C error crashed the daemon so). These strong definitions
// replace the runtime's weak ones: the same retain, and the bridge object handed back unchanged.
#include <stdint.h>

#if UINTPTR_MAX == UINT64_MAX
void *swift_retain(void *object);
void *swift_retain_n(void *object, uint32_t count);

// The heap object a bridge object points at; NULL for a tagged value, which owns no reference.
static void *heap_object(void *object) {
    uintptr_t bits = (uintptr_t)object;
    if (bits >> 63) return 0;
    return (void *)(bits & 0x0ffffffffffffff8u);
}

void *swift_bridgeObjectRetain(void *object) {
    void *heap = heap_object(object);
    if (heap) swift_retain(heap);
    return object;
}

void *swift_bridgeObjectRetain_n(void *object, uint32_t count) {
    void *heap = heap_object(object);
    if (heap) swift_retain_n(heap, count);
    return object;
}
#endif
