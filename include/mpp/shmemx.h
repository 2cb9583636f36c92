/* Deprecated header location used by OpenSHMEM 1.0 programs. */
#include <shmemx.h>
