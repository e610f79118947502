// The kernel's clock discipline, as time daemons leave it (adjtimex), header only.
#include <sys/timex.h>
