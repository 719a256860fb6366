#include <ogg/ogg.h>
