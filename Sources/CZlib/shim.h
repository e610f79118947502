// zlib, for its CRC-32 (a spooled photo's checksum, gigabytes a second).
#include <zlib.h>
