// Process set-up that Swift cannot express: glibc's malloc tuning (mallopt), which Swift's Glibc
// module leaves out, and the control signals: blocked before any Swift code runs, then caught by
// an async-signal-safe handler that only writes the signal's number to a pipe.
#ifndef CAMCTL_CPROCESS_SHIM_H
#define CAMCTL_CPROCESS_SHIM_H
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

// The signals camctl takes as controls: interrupt (INT, TERM), take a photo (USR1), finish (USR2).
static inline void camctl_control_signals(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGUSR1);
    sigaddset(set, SIGUSR2);
}

// Blocked from the moment the program is loaded, before main and before any thread exists, so one
// that arrives while camctl starts waits, pending, instead of meeting the default action.
static inline void __attribute__((constructor)) camctl_block_control_signals(void) {
    sigset_t set;
    camctl_control_signals(&set);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

static int camctl_signal_pipe[2] = {-1, -1};

static void camctl_on_control_signal(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    ssize_t written = write(camctl_signal_pipe[1], &byte, 1);  // a full pipe drops it: controls are already waiting
    (void)written;
    errno = saved;
}

// Catches the control signals in whichever thread they land, then unblocks them here: those that
// came while camctl started are delivered now. Returns the pipe's read end (one byte per signal,
// its number), or -1 when no pipe could be made.
static inline int camctl_catch_control_signals(void) {
    if (pipe2(camctl_signal_pipe, O_CLOEXEC) != 0) return -1;
    fcntl(camctl_signal_pipe[1], F_SETFL, O_NONBLOCK);
    struct sigaction action = {0};
    action.sa_handler = camctl_on_control_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGUSR1, &action, NULL);
    sigaction(SIGUSR2, &action, NULL);
    sigset_t set;
    camctl_control_signals(&set);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    return camctl_signal_pipe[0];
}
#endif
